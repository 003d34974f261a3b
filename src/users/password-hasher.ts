import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { compare, hash } from 'bcrypt';
import { randomBytes } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/config';

/** bcrypt at the configured cost; its async API keeps hashing off the event loop. */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private dummyHash = '';

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    // Compared against when a login is unknown, so unknown and known logins take the same time.
    this.dummyHash = await hash(randomBytes(16).toString('hex'), this.config.bcryptCost);
  }

  hash(password: string): Promise<string> {
    return hash(password, this.config.bcryptCost);
  }

  verify(password: string, passwordHash: string | undefined): Promise<boolean> {
    return compare(password, passwordHash ?? this.dummyHash).then((ok) => ok && passwordHash !== undefined);
  }

  /** A temporary password for a released user: 96 random bits, easy to type. */
  temporaryPassword(): string {
    return randomBytes(12).toString('base64url');
  }
}

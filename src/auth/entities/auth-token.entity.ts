import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A stored token: only its SHA-256 hash is kept. */
@Entity('auth_tokens')
export class AuthToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('bytea', { name: 'token_hash', unique: true })
  tokenHash: Buffer;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('uuid', { name: 'membership_id' })
  membershipId: string;

  @Column('text', { default: 'full' })
  scope: 'full' | 'password_change';

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

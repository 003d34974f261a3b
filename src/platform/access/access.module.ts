import { Global, Module, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { AccessGuard } from './access.guard';
import { AccessRepository } from './access.repository';
import { AccessService } from './access.service';
import { RateLimiter } from './rate-limiter';
import { RateLimitsRepository } from './rate-limits.repository';
import { ROLES } from './permissions';
import { RouteScanner } from './route-scanner';

@Global()
@Module({
  imports: [DiscoveryModule, PassportModule],
  providers: [
    AccessService,
    AccessRepository,
    RouteScanner,
    RateLimiter,
    RateLimitsRepository,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [AccessService, RouteScanner, RateLimiter],
})
export class AccessModule implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly scanner: RouteScanner,
    private readonly repository: AccessRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.repository.syncRoles(ROLES);
  }

  /** Refuse to start with a route whose `@Route` is missing (no access rule). */
  onApplicationBootstrap(): void {
    const open = this.scanner.routes().filter((r) => !r.access);
    if (open.length) {
      throw new Error(`Routes without an access rule: ${open.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    }
  }
}

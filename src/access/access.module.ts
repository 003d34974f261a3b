import { Global, Module, OnApplicationBootstrap } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { AccessGuard } from './access.guard';
import { AccessService } from './access.service';
import { RouteScanner } from './route-scanner';

@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [AccessService, RouteScanner, { provide: APP_GUARD, useClass: AccessGuard }],
  exports: [AccessService, RouteScanner],
})
export class AccessModule implements OnApplicationBootstrap {
  constructor(private readonly scanner: RouteScanner) {}

  /** Refuse to start with a route that declares neither @Public() nor @RequirePermissions(). */
  onApplicationBootstrap(): void {
    const open = this.scanner.routes().filter((r) => !r.access);
    if (open.length) {
      throw new Error(`Routes without an access rule: ${open.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    }
  }
}

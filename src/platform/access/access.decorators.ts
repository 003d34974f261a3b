import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/error-response.dto';
import type { Permission } from './permissions';

export const ACCESS_KEY = 'finapi:access';

export type AccessRule =
  { public: true } | { public: false; permissions: Permission[]; allowPasswordChange?: boolean; staticToken?: StaticTokenName };

/** Shared bearer secrets from the configuration a route may accept instead of a user's token (a scraper has no user). */
export type StaticTokenName = 'metricsToken';

/** Opens a route to everyone, logged in or not. */
export function Public(): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(ACCESS_KEY, { public: true } satisfies AccessRule));
}

/**
 * The one route decorator: the caller must present a valid token whose membership holds every
 * listed permission. With no permission listed, any logged-in member may call the route.
 * Drives the guard, the Swagger security and error responses, and the actuator's api-list.
 */
export function RequirePermissions(...permissions: Permission[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ACCESS_KEY, { public: false, permissions } satisfies AccessRule),
    ApiBearerAuth('bearer'),
    ApiUnauthorizedResponse({ description: 'No token, or an expired or revoked one', type: ErrorResponseDto }),
    ApiForbiddenResponse({
      description: permissions.length ? `Requires ${permissions.join(', ')}` : 'A password change is required first',
      type: ErrorResponseDto,
    }),
  );
}

/** The only route a token issued for a temporary password may call. */
export function PasswordChangeRoute(): MethodDecorator {
  return applyDecorators(
    SetMetadata(ACCESS_KEY, { public: false, permissions: [], allowPasswordChange: true } satisfies AccessRule),
    ApiBearerAuth('bearer'),
    ApiUnauthorizedResponse({ description: 'No token, or an expired or revoked one', type: ErrorResponseDto }),
  );
}

/**
 * Like RequirePermissions, but a caller presenting `Authorization: Bearer <the configured secret>`
 * (e.g. METRICS_TOKEN, for a Prometheus scraper) is let in too. Unset secret: permissions only.
 */
export function RequirePermissionsOrToken(token: StaticTokenName, ...permissions: Permission[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    RequirePermissions(...permissions),
    SetMetadata(ACCESS_KEY, { public: false, permissions, staticToken: token } satisfies AccessRule),
  );
}

import type { Permission } from './permissions';

export const ACCESS_KEY = 'finapi:access';

/** Who may call a route, as `@Route` records it (src/platform/http/route.decorator.ts): read by the guard and the actuator's api-list. */
export type AccessRule =
  { public: true } | { public: false; permissions: Permission[]; allowPasswordChange?: boolean; staticToken?: StaticTokenName };

/** Shared bearer secrets from the configuration a route may accept instead of a user's token (a scraper has no user). */
export type StaticTokenName = 'metricsToken';

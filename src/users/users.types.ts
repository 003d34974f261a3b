/** The operator's support organization, seeded by the first migration; staff belong to it. */
export const SUPPORT_ORGANIZATION_ID = '00000000-0000-4000-8000-000000000001';
/** Owns the technical coins (bank settlement, commission, …). */
export const SYSTEM_ORGANIZATION_ID = '00000000-0000-4000-8000-000000000002';

export type UserStatus = 'active' | 'on_hold';

/** What a user action records: who did what to which user, when, and from which address. */
export type UserActionKind =
  | 'login_succeeded'
  | 'login_failed'
  | 'login_refused_on_hold'
  | 'user_held'
  | 'user_released'
  | 'user_created'
  | 'password_changed'
  | 'logout';

export const ORGANIZATION_TYPES = ['individual', 'merchant', 'support', 'cash_desk', 'system'] as const;
export type OrganizationType = (typeof ORGANIZATION_TYPES)[number];

export const IDENTIFICATION_STATUSES = ['none', 'pending', 'approved', 'declined', 'review_required', 'not_available'] as const;
export type IdentificationStatus = (typeof IDENTIFICATION_STATUSES)[number];

export const PERSON_TYPES = ['base', 'standard', 'gold', 'vip'] as const;
export type PersonType = (typeof PERSON_TYPES)[number];

/** The operator's support organization, seeded by the first migration; staff belong to it. */
export const SUPPORT_ORGANIZATION_ID = '00000000-0000-4000-8000-000000000001';
/** Owns the technical coins (bank settlement, commission, …). */
export const SYSTEM_ORGANIZATION_ID = '00000000-0000-4000-8000-000000000002';

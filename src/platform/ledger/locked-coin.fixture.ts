import type { LockedCoin } from './ledger.types';

/**
 * A locked coin as the kernel's pure rules see it, for their unit tests and micro-benchmarks (not the service's code):
 * a client coin of `org-<serial>` holding 100 USD, nothing held, open; `overrides` change any column.
 */
export function lockedCoin(serial: string, overrides: Partial<LockedCoin> = {}): LockedCoin {
  return {
    serial,
    organization_id: `org-${serial}`,
    issuer_id: 'issuer',
    currency_id: 'usd-id',
    code: 'USD',
    symbol: '$',
    fraction: '100',
    type: 'client',
    system_kind: null,
    main: false,
    name: `Coin ${serial}`,
    issuer_sn: '1',
    organization_name: `Organization ${serial}`,
    organization_email: null,
    organization_phone: null,
    balance: '100',
    held: '0',
    active: true,
    closed_at: null,
    usable: true,
    ...overrides,
  };
}

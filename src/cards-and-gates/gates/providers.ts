import { createHash } from 'node:crypto';
import { Money } from '../../platform/common/money';

/** What a provider's settings hold, secrets excepted (the simulated provider's knobs). */
export interface ProviderSettings {
  /** How long the provider takes to answer, in milliseconds. */
  latencyMs?: number;
  /** Amounts above this are refused by the provider. */
  failAbove?: string;
  /** Amounts above this are accepted for later: the provider answers `pending` and calls back. */
  asyncAbove?: string;
  /** The share (0 to 1) of payments the provider refuses, decided by the payment's reference. */
  failureRate?: number;
}

/** Settings as a request changes them: a knob set to null is removed. */
export type KnobChanges = { [K in keyof ProviderSettings]?: ProviderSettings[K] | null };

export interface ProviderRequest {
  /** The service's reference of the payment: the provider's idempotency key. */
  reference: string;
  type: 'payment' | 'payout' | 'card_issue' | 'TOPUP' | 'REDEEM';
  amount: string;
  currency: string;
  productName: string;
  fields: Record<string, unknown>;
  settings: ProviderSettings;
}

export interface ProviderOutcome {
  status: 'processed' | 'failure' | 'pending';
  /** The provider's own reference of the payment. */
  providerReference: string;
  reason?: string;
  /** What the provider answered besides (a virtual card issued). */
  data?: Record<string, unknown>;
}

/** The interface a real provider adapter implements: pay (idempotent on the reference) and ask how a payment ended. */
export interface GateProvider {
  pay(request: ProviderRequest): Promise<ProviderOutcome>;
  status(request: ProviderRequest): Promise<ProviderOutcome>;
}

/**
 * The built-in simulated provider: no network, its answer decided by its settings — a latency, a refusal above an
 * amount, an asynchronous acceptance above another (it calls back later), and a failure rate decided by the
 * reference (so asking again answers the same). A card-issuing payment answers a virtual card.
 */
export class SimulatedProvider implements GateProvider {
  async pay(request: ProviderRequest): Promise<ProviderOutcome> {
    const latency = Math.max(0, Math.min(request.settings.latencyMs ?? 0, 600_000));
    if (latency) await new Promise((r) => setTimeout(r, latency));
    return this.outcome(request, true);
  }

  async status(request: ProviderRequest): Promise<ProviderOutcome> {
    // Asked later (by the reconciler), an asynchronous payment is still waiting for its callback.
    return this.outcome(request, false);
  }

  private outcome(request: ProviderRequest, _first: boolean): ProviderOutcome {
    const { settings } = request;
    const amount = new Money(request.amount);
    const providerReference = `sim-${request.reference}`;
    if (settings.failAbove !== undefined && amount.gt(new Money(settings.failAbove))) {
      return { status: 'failure', providerReference, reason: `The provider refuses amounts above ${settings.failAbove}` };
    }
    const rate = settings.failureRate ?? 0;
    if (rate > 0 && createHash('sha256').update(request.reference).digest().readUInt16BE(0) / 65536 < rate) {
      return { status: 'failure', providerReference, reason: 'The provider refused the payment' };
    }
    if (settings.asyncAbove !== undefined && amount.gt(new Money(settings.asyncAbove))) {
      return { status: 'pending', providerReference };
    }
    const data =
      request.type === 'card_issue'
        ? {
            virtualCardId: `vc-${request.reference}`,
            maskedPan: `4000 00** **** ${request.reference.replace(/\D/g, '').slice(0, 4).padEnd(4, '0')}`,
          }
        : undefined;
    return { status: 'processed', providerReference, ...(data ? { data } : {}) };
  }
}

const DECIMAL = /^\d{1,20}(\.\d{1,18})?$/;

/** A setting a provider takes, as the gate-settings screen lists and changes it (`fields [{name, value}]`). */
export interface SettingField {
  name: keyof ProviderSettings | 'secret';
  label: string;
  type: 'integer' | 'decimal' | 'rate' | 'text';
  /** Write-only: never answered, only whether it is set. */
  secret: boolean;
  /**
   * The value as stored, or why it is refused. Null and empty text remove a knob (its default again); a secret
   * cannot be removed. Numbers are taken as the screen's inputs send them: as text or as JSON numbers.
   */
  parse(value: unknown): { value: string | number | null } | { problem: string };
}

const text = (value: unknown): string | null =>
  value === null || value === undefined
    ? null
    : typeof value === 'number' && Number.isFinite(value)
      ? String(value)
      : typeof value === 'string'
        ? value.trim()
        : null;

function knob(name: SettingField['name'], label: string, type: 'integer' | 'decimal' | 'rate'): SettingField {
  return {
    name,
    label,
    type,
    secret: false,
    parse(value) {
      if (value === null || value === '') return { value: null };
      const t = text(value);
      if (t === null || t === '') return { problem: 'must be a number, or null to remove it' };
      if (type === 'integer') {
        if (!/^\d{1,6}$/.test(t) || Number(t) > 600_000) return { problem: 'must be a whole number of milliseconds from 0 to 600000' };
        return { value: Number(t) };
      }
      if (!DECIMAL.test(t)) return { problem: `must be a non-negative decimal such as "${type === 'rate' ? '0.25' : '1000.00'}"` };
      if (type === 'rate') {
        if (new Money(t).gt(1)) return { problem: 'must be from 0 to 1' };
        return { value: Number(t) };
      }
      return { value: t };
    },
  };
}

/** The simulated provider's settings: its knobs and the callback secret. */
const SIMULATED_SETTINGS: readonly SettingField[] = [
  knob('latencyMs', 'Latency (ms)', 'integer'),
  knob('failAbove', 'Refuse amounts above', 'decimal'),
  knob('asyncAbove', 'Answer later above', 'decimal'),
  knob('failureRate', 'Failure rate (0 to 1)', 'rate'),
  {
    name: 'secret',
    label: 'Callback secret',
    type: 'text',
    secret: true,
    parse(value) {
      const t = typeof value === 'string' ? value : null;
      if (t === null || t === '') return { problem: 'cannot be removed: give a new secret of 16 to 200 characters' };
      if (t.length < 16 || t.length > 200) return { problem: 'must be 16 to 200 characters long' };
      return { value: t };
    },
  },
];

/**
 * The settings a provider takes. Every provider runs on the simulated adapter for now, so they all take its fields;
 * a real adapter declares its own here, and `PATCH …/settings` validates by them.
 */
export function settingFieldsOf(_providerType: string): readonly SettingField[] {
  return SIMULATED_SETTINGS;
}

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

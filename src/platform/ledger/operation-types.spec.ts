import {
  FAMILY_ONLY_TYPES,
  FAMILY_TYPE_NAMES,
  familyTypeOf,
  flowOfType,
  OPERATION_FLOW_NAMES,
  OPERATION_FLOWS,
  OPERATION_TYPE_NAMES,
  OPERATION_TYPES,
} from './operation-types';

describe('operation flows and types: one list', () => {
  it('names the ten flows commissions attach to, in the family’s words', () => {
    expect(OPERATION_FLOW_NAMES).toEqual([
      'client_transaction_transfer',
      'bank_topup',
      'bank_withdrawal',
      'exchange',
      'cash_in',
      'cash_out',
      'voucher',
      'gate_payment',
      'invoice_payment',
      'merchant_payment',
    ]);
  });

  it('gives an operation type that is a flow the flow’s name and description; the others carry no fee', () => {
    const priced = OPERATION_TYPE_NAMES.filter((t) => flowOfType(t) !== null);
    expect(priced).toEqual([
      'client_transaction_transfer',
      'bank_topup',
      'bank_withdrawal',
      'cash_in',
      'cash_out',
      'exchange',
      'gate_payment',
      'invoice_payment',
      'merchant_payment',
    ]);
    for (const type of priced) expect(OPERATION_TYPES[type]).toBe(OPERATION_FLOWS[flowOfType(type)!]);
    expect(flowOfType('reversal')).toBeNull();
    // A customer's withdrawal at a cash desk is priced as a cash_out, by its service.
    expect(flowOfType('cash_desk_redeem')).toBeNull();
    expect(flowOfType('coin_closure')).toBeNull();
    // Vouchers are priced as the flow `voucher` at purchase; card payments as transfers (one code path); gate top-ups
    // by the gate's commission rules (else the flow gate_payment).
    for (const type of [
      'reserve_funding',
      'cash_input',
      'cash_collect',
      'cash_investment',
      'gate_investment',
      'voucher_create',
      'voucher_redeem',
      'voucher_refund',
      'card_payment',
      'gate_charge',
    ])
      expect(flowOfType(type)).toBeNull();
  });

  it('names each type once in the family’s words: no two types share a family name, and a family-only name is no type', () => {
    const names = OPERATION_TYPE_NAMES.map(familyTypeOf);
    expect(new Set(names).size).toBe(names.length);
    const taken = new Set<string>([...OPERATION_TYPE_NAMES, ...Object.values(FAMILY_TYPE_NAMES)]);
    expect(FAMILY_ONLY_TYPES.filter((t) => taken.has(t))).toEqual([]);
  });
});

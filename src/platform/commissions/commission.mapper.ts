import { amountOf, JsonDecimal } from '../common/json-decimal';
import { Money, scaleOf } from '../common/money';
import type { ConditionRow, ProfileRow, RuleRow } from './commissions.repository';
import { familyTypeOf, OPERATION_FLOWS, OperationFlow } from '../ledger/operation-types';
import type { OperationFlowDto } from './dto/commission-calculation.dto';
import type { CommissionProfileDto, ProfileIssuerDto } from './dto/commission-profile.dto';
import type { CommissionConditionAnswerDto, CommissionRuleDto } from './dto/commission-rule.dto';
import { directionOf } from './fee';

/** A percent as the exact decimal it is, without trailing zeros (`1.5`, `100`). */
function percentOf(value: string): JsonDecimal {
  return new JsonDecimal(new Money(value).toFixed());
}

/** The flows that bring money into the service, and those that take it out (the rest move it within). */
const MONEY_IN: readonly OperationFlow[] = ['bank_topup', 'cash_in'];
const MONEY_OUT: readonly OperationFlow[] = ['bank_withdrawal', 'cash_out', 'gate_payment'];
/** The flows between two currencies, whose profiles may name the issuer bought. */
export const MULTI_CURRENCY_FLOWS: readonly OperationFlow[] = ['exchange'];

/** The coins a flow moves money between, by type: the settlement and reserve coins are system coins. */
const COIN_TYPES_OF: Record<OperationFlow, readonly ['client' | 'system', 'client' | 'system']> = {
  client_transaction_transfer: ['client', 'client'],
  bank_topup: ['system', 'client'],
  bank_withdrawal: ['client', 'system'],
  exchange: ['client', 'client'],
  cash_in: ['client', 'client'],
  cash_out: ['client', 'client'],
  voucher: ['client', 'system'],
  gate_payment: ['client', 'system'],
  invoice_payment: ['client', 'client'],
  merchant_payment: ['client', 'client'],
};

/** An operation flow as `GET /operation-flows` and commission profiles answer it, in the family's words too. */
export function toFlowDto(name: OperationFlow): OperationFlowDto {
  return {
    id: name,
    name,
    description: OPERATION_FLOWS[name],
    code: familyTypeOf(name),
    processType: familyTypeOf(name),
    transactionType: MONEY_IN.includes(name) ? 'issue' : MONEY_OUT.includes(name) ? 'redeem' : 'transfer',
    isMultiCurrency: MULTI_CURRENCY_FLOWS.includes(name),
    srcCoinType: COIN_TYPES_OF[name][0],
    destCoinType: COIN_TYPES_OF[name][1],
  };
}

function toIssuerDto(issuer: ProfileRow['issuer']): ProfileIssuerDto {
  return { id: issuer.id, sn: Number(issuer.sn), currency: issuer.code, symbol: issuer.symbol, fraction: Number(issuer.fraction) };
}

const EVERY_PARTICIPANT = { type: 'no', value: null } as const;

export function toProfileDto(row: ProfileRow): CommissionProfileDto {
  return {
    id: row.id,
    contractId: row.contract_id,
    flow: toFlowDto(row.flow),
    issuer: toIssuerDto(row.issuer),
    destinationIssuer: row.destination_issuer ? toIssuerDto(row.destination_issuer) : null,
    srcParticipantSpecification: EVERY_PARTICIPANT,
    destParticipantSpecification: EVERY_PARTICIPANT,
    name: row.name,
    description: row.description,
    active: row.active,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function toConditionDto(row: ConditionRow, scale: number): CommissionConditionAnswerDto {
  const commission = {
    type: row.type,
    valuePercent: row.valuePercent === null ? null : percentOf(row.valuePercent),
    valueFixed: row.valueFixed === null ? null : amountOf(row.valueFixed, scale),
    rounding: row.rounding,
    minFee: row.minFee === null ? null : amountOf(row.minFee, scale),
  };
  return {
    id: row.id,
    beginAmount: amountOf(row.beginAmount, scale),
    endAmount: row.endAmount === null ? null : amountOf(row.endAmount, scale),
    commission,
    value: commission,
  };
}

export function toRuleDto(row: RuleRow, profile: ProfileRow): CommissionRuleDto {
  const scale = scaleOf(profile.issuer.fraction);
  return {
    id: row.id,
    profileId: row.profile_id,
    contractId: profile.contract_id,
    beginDate: row.begin_date.toISOString(),
    endDate: row.end_date ? row.end_date.toISOString() : null,
    payer: row.payer,
    feeDirection: directionOf(row.payer),
    active: row.active,
    conditions: row.conditions.map((c) => toConditionDto(c, scale)),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

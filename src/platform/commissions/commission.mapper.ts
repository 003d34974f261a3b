import { amountOf, JsonDecimal } from '../common/json-decimal';
import { Money, scaleOf } from '../common/money';
import type { ConditionRow, ProfileRow, RuleRow } from './commissions.repository';
import type { CommissionProfileDto } from './dto/commission-profile.dto';
import type { CommissionConditionAnswerDto, CommissionRuleDto } from './dto/commission-rule.dto';

/** A percent as the exact decimal it is, without trailing zeros (`1.5`, `100`). */
function percentOf(value: string): JsonDecimal {
  return new JsonDecimal(new Money(value).toFixed());
}

export function toProfileDto(row: ProfileRow): CommissionProfileDto {
  return {
    id: row.id,
    contractId: row.contract_id,
    flow: row.flow,
    issuer: {
      id: row.issuer.id,
      sn: Number(row.issuer.sn),
      currency: row.issuer.code,
      symbol: row.issuer.symbol,
      fraction: Number(row.issuer.fraction),
    },
    name: row.name,
    description: row.description,
    active: row.active,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function toConditionDto(row: ConditionRow, scale: number): CommissionConditionAnswerDto {
  return {
    id: row.id,
    beginAmount: amountOf(row.beginAmount, scale),
    endAmount: row.endAmount === null ? null : amountOf(row.endAmount, scale),
    commission: {
      type: row.type,
      valuePercent: row.valuePercent === null ? null : percentOf(row.valuePercent),
      valueFixed: row.valueFixed === null ? null : amountOf(row.valueFixed, scale),
      rounding: row.rounding,
      minFee: row.minFee === null ? null : amountOf(row.minFee, scale),
    },
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
    active: row.active,
    conditions: row.conditions.map((c) => toConditionDto(c, scale)),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

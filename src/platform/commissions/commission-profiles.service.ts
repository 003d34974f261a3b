import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { Money, parseAmount, scaleOf } from '../common/money';
import { Page, pageOf, pageWindow } from '../common/paging.dto';
import { UnitOfWork } from '../database/unit-of-work';
import { LedgerService } from '../ledger/ledger.service';
import type { OperationFlow } from '../ledger/operation-types';
import { UserActionsService } from '../user-actions/user-actions.service';
import { MULTI_CURRENCY_FLOWS, toProfileDto, toRuleDto } from './commission.mapper';
import { overlappingRanges } from './commission-rules';
import { CommissionsRepository, NewCondition, ProfileRow, RuleRow } from './commissions.repository';
import type {
  CommissionProfileDto,
  CommissionProfileViewDto,
  CreateCommissionProfileDto,
  CreateMultiCurrencyProfileDto,
  UpdateCommissionProfileDto,
} from './dto/commission-profile.dto';
import type {
  CommissionConditionDto,
  CommissionRuleDto,
  CommissionRuleViewDto,
  CreateCommissionRuleDto,
  UpdateCommissionRuleDto,
} from './dto/commission-rule.dto';
import { COMMISSION_DIRECTIONS, CommissionDirection, CommissionPayer, usesFixed, usesPercent } from './fee';

/** Who changed which commission setting, for the action log (`commission_settings_changed`). */
export interface SettingChange {
  /** The member of staff who made it. */
  actor: string;
  change: 'created' | 'changed' | 'deleted';
}

/** The payer a rule's `payer` or `direction` (the family's name) says; both given, they must agree (400). */
function payerOf(dto: { payer?: CommissionPayer; direction?: CommissionDirection }): CommissionPayer | undefined {
  const named = dto.direction === undefined ? undefined : COMMISSION_DIRECTIONS[dto.direction];
  if (named && dto.payer !== undefined && dto.payer !== named) {
    throw ApiError.invalid('direction', `${dto.direction} means payer ${named}, not ${dto.payer}`);
  }
  return named ?? dto.payer;
}

/** The flow a profile's `flow` or `operationFlowId` (the family's name) says; both given, they must agree (400). */
function flowOf(dto: { flow?: OperationFlow; operationFlowId?: OperationFlow }): OperationFlow {
  if (dto.flow !== undefined && dto.operationFlowId !== undefined && dto.flow !== dto.operationFlowId) {
    throw ApiError.invalid('operationFlowId', `must be the flow given in flow (${dto.flow})`);
  }
  return (dto.flow ?? dto.operationFlowId)!;
}

/**
 * The settings commissions are computed from: a contract's profiles (one per flow and issuer),
 * their rules (date ranges, who pays) and the rules' conditions (amount ranges and values).
 * Callers have checked the contract exists. Every change to a profile's rules runs with the
 * profile locked, so the no-overlap rules hold under concurrent changes.
 */
@Injectable()
export class CommissionProfilesService {
  constructor(
    private readonly commissions: CommissionsRepository,
    private readonly ledger: LedgerService,
    private readonly actions: UserActionsService,
    private readonly uow: UnitOfWork,
  ) {}

  async createProfile(contractId: string, dto: CreateCommissionProfileDto, actor: string): Promise<CommissionProfileDto> {
    return this.insertProfile(contractId, { ...dto, flow: flowOf(dto), destinationIssuerId: null }, actor);
  }

  /** A profile of a multi-currency flow (exchange) from one issuer's currency to another's. */
  async createMultiCurrencyProfile(contractId: string, dto: CreateMultiCurrencyProfileDto, actor: string): Promise<CommissionProfileDto> {
    if (!MULTI_CURRENCY_FLOWS.includes(dto.operationFlowId)) {
      throw ApiError.invalid('operationFlowId', `must be a multi-currency flow (${MULTI_CURRENCY_FLOWS.join(', ')})`);
    }
    if (dto.destinationIssuerId === dto.sourceIssuerId)
      throw ApiError.invalid('destinationIssuerId', 'must be another issuer than sourceIssuerId');
    return this.insertProfile(
      contractId,
      { ...dto, flow: dto.operationFlowId, issuerId: dto.sourceIssuerId, destinationIssuerId: dto.destinationIssuerId },
      actor,
    );
  }

  private async insertProfile(
    contractId: string,
    dto: {
      flow: OperationFlow;
      issuerId: string;
      destinationIssuerId: string | null;
      name?: string;
      description?: string;
      active?: boolean;
    },
    actor: string,
  ): Promise<CommissionProfileDto> {
    return this.uow.run(async () => {
      // The fee of any of the profile's rules goes to the issuer's commission coin: it exists from now on (404 for an unknown issuer).
      await this.issuerExists(dto.issuerId);
      if (dto.destinationIssuerId) await this.issuerExists(dto.destinationIssuerId);
      const id = await this.commissions.insertProfile({
        contractId,
        flow: dto.flow,
        issuerId: dto.issuerId,
        destinationIssuerId: dto.destinationIssuerId,
        name: dto.name ?? null,
        description: dto.description ?? null,
        active: dto.active ?? true,
      });
      if (!id) {
        const issuers = dto.destinationIssuerId ? `issuers ${dto.issuerId} → ${dto.destinationIssuerId}` : `issuer ${dto.issuerId}`;
        throw new ApiError(
          'exception.commission.profile_exists',
          `The contract already has a commission profile for ${dto.flow} and ${issuers}`,
        );
      }
      await this.ledger.systemCoin(dto.issuerId, 'commission');
      await this.log({ actor, change: 'created' }, { contractId, profileId: id });
      return toProfileDto((await this.commissions.profile(contractId, id))!);
    });
  }

  async viewProfiles(contractId: string, dto: CommissionProfileViewDto): Promise<Page<CommissionProfileDto>> {
    const { total, rows } = await this.commissions.searchProfiles({ contractId, ...(dto.filter ?? {}), ...pageWindow(dto) });
    return pageOf(dto, total, rows.map(toProfileDto));
  }

  async getProfile(contractId: string, profileId: string): Promise<CommissionProfileDto> {
    return toProfileDto(await this.profile(contractId, profileId));
  }

  async updateProfile(
    contractId: string,
    profileId: string,
    dto: UpdateCommissionProfileDto,
    actor: string,
  ): Promise<CommissionProfileDto> {
    return this.uow.run(async () => {
      const current = await this.profile(contractId, profileId, true);
      await this.commissions.updateProfile(
        profileId,
        dto.name !== undefined ? dto.name : current.name,
        dto.description !== undefined ? dto.description : current.description,
        dto.active ?? current.active,
      );
      await this.log({ actor, change: 'changed' }, { contractId, profileId, fields: Object.keys(dto).sort() });
      return this.getProfile(contractId, profileId);
    });
  }

  /** Deletes a profile with its rules and conditions; operations it priced keep their commission. */
  async deleteProfile(contractId: string, profileId: string, actor: string): Promise<void> {
    await this.uow.run(async () => {
      await this.profile(contractId, profileId, true);
      await this.commissions.deleteProfile(profileId);
      await this.log({ actor, change: 'deleted' }, { contractId, profileId });
    });
  }

  /** Copies a contract's profiles, rules and conditions to another contract (`POST /contracts/{id}/copy`). */
  copyProfiles(fromContractId: string, toContractId: string): Promise<number> {
    return this.uow.run(() => this.commissions.copyProfiles(fromContractId, toContractId));
  }

  async createRule(contractId: string, profileId: string, dto: CreateCommissionRuleDto, actor: string): Promise<CommissionRuleDto> {
    const payer = payerOf(dto)!;
    return this.uow.run(async () => {
      const profile = await this.profile(contractId, profileId, true);
      const conditions = this.conditions(profile, dto.conditions ?? [], 'conditions');
      const rule = { beginDate: new Date(dto.beginDate), endDate: dto.endDate ? new Date(dto.endDate) : null, active: dto.active ?? true };
      await this.assertNoOverlap(profileId, rule, null);
      const id = await this.commissions.insertRule(profileId, {
        beginDate: dto.beginDate,
        endDate: dto.endDate ?? null,
        payer,
        active: rule.active,
      });
      await this.commissions.insertConditions(id, conditions);
      await this.log({ actor, change: 'created' }, { contractId, profileId, ruleId: id });
      return this.getRule(contractId, profileId, id);
    });
  }

  async viewRules(contractId: string, profileId: string, dto: CommissionRuleViewDto): Promise<Page<CommissionRuleDto>> {
    const profile = await this.profile(contractId, profileId);
    const { total, rows } = await this.commissions.searchRules({
      profileId,
      criteria: dto.filterCriteria,
      date: dto.date ?? new Date().toISOString(),
      active: dto.filter?.active,
      payer: dto.filter ? payerOf(dto.filter as { payer?: CommissionPayer; direction?: CommissionDirection }) : undefined,
      direction: dto.sort?.beginDate === 'desc' ? 'DESC' : 'ASC',
      ...pageWindow(dto),
    });
    return pageOf(
      dto,
      total,
      rows.map((r) => toRuleDto(r, profile)),
    );
  }

  async getRule(contractId: string, profileId: string, ruleId: string): Promise<CommissionRuleDto> {
    const profile = await this.profile(contractId, profileId);
    return toRuleDto(await this.rule(profileId, ruleId), profile);
  }

  async updateRule(
    contractId: string,
    profileId: string,
    ruleId: string,
    dto: UpdateCommissionRuleDto,
    actor: string,
  ): Promise<CommissionRuleDto> {
    const payer = payerOf(dto);
    return this.uow.run(async () => {
      const profile = await this.profile(contractId, profileId, true);
      const current = await this.rule(profileId, ruleId);
      const next = {
        beginDate: dto.beginDate !== undefined ? new Date(dto.beginDate) : current.begin_date,
        endDate: dto.endDate !== undefined ? (dto.endDate === null ? null : new Date(dto.endDate)) : current.end_date,
        payer: payer ?? current.payer,
        active: dto.active ?? current.active,
      };
      if (next.endDate && next.endDate <= next.beginDate) throw ApiError.invalid('endDate', 'must be later than beginDate');
      const conditions = dto.conditions ? this.conditions(profile, dto.conditions, 'conditions') : undefined;
      await this.assertNoOverlap(profileId, next, ruleId);
      await this.commissions.updateRule(ruleId, next);
      if (conditions) {
        await this.commissions.deleteConditions(ruleId);
        await this.commissions.insertConditions(ruleId, conditions);
      }
      await this.log({ actor, change: 'changed' }, { contractId, profileId, ruleId, fields: Object.keys(dto).sort() });
      return this.getRule(contractId, profileId, ruleId);
    });
  }

  async deleteRule(contractId: string, profileId: string, ruleId: string, actor: string): Promise<void> {
    await this.uow.run(async () => {
      await this.profile(contractId, profileId, true);
      await this.rule(profileId, ruleId);
      await this.commissions.deleteRule(ruleId);
      await this.log({ actor, change: 'deleted' }, { contractId, profileId, ruleId });
    });
  }

  /** Adds one condition to a rule; its amount range must not meet another of the rule's (409). */
  async addCondition(
    contractId: string,
    profileId: string,
    ruleId: string,
    dto: CommissionConditionDto,
    actor: string,
  ): Promise<CommissionRuleDto> {
    return this.putCondition(contractId, profileId, ruleId, null, dto, actor);
  }

  /** Replaces a condition's amount range and commission; the range must not meet another of the rule's (409). */
  async updateCondition(
    contractId: string,
    profileId: string,
    ruleId: string,
    conditionId: string,
    dto: CommissionConditionDto,
    actor: string,
  ): Promise<CommissionRuleDto> {
    return this.putCondition(contractId, profileId, ruleId, conditionId, dto, actor);
  }

  async deleteCondition(
    contractId: string,
    profileId: string,
    ruleId: string,
    conditionId: string,
    actor: string,
  ): Promise<CommissionRuleDto> {
    return this.uow.run(async () => {
      await this.profile(contractId, profileId, true);
      await this.rule(profileId, ruleId);
      if (!(await this.commissions.deleteCondition(ruleId, conditionId))) throw this.noCondition();
      await this.log({ actor, change: 'deleted' }, { contractId, profileId, ruleId, conditionId });
      return this.getRule(contractId, profileId, ruleId);
    });
  }

  /** Adds a condition (`conditionId` null) or replaces one, checked against the rule's other conditions. */
  private async putCondition(
    contractId: string,
    profileId: string,
    ruleId: string,
    conditionId: string | null,
    dto: CommissionConditionDto,
    actor: string,
  ): Promise<CommissionRuleDto> {
    return this.uow.run(async () => {
      const profile = await this.profile(contractId, profileId, true);
      const rule = await this.rule(profileId, ruleId);
      if (conditionId && !rule.conditions.some((c) => c.id === conditionId)) throw this.noCondition();
      const [put] = this.conditions(profile, [dto], '');
      const others = rule.conditions
        .filter((c) => c.id !== conditionId)
        .map((c) => ({ beginAmount: new Money(c.beginAmount), endAmount: c.endAmount === null ? null : new Money(c.endAmount) }));
      if (overlappingRanges([...others, put])) {
        throw new ApiError('exception.commission.condition_overlap', 'The amount range meets another condition of the rule');
      }
      if (conditionId) await this.commissions.deleteCondition(ruleId, conditionId);
      const id = await this.commissions.insertConditions(ruleId, [put], conditionId);
      await this.log({ actor, change: conditionId ? 'changed' : 'created' }, { contractId, profileId, ruleId, conditionId: id[0] });
      return this.getRule(contractId, profileId, ruleId);
    });
  }

  private noCondition(): ApiError {
    return new ApiError('exception.commission.condition_not_found', 'No such condition in this rule');
  }

  /** Records a change to a commission setting in the action log, in the change's transaction. */
  private log(change: SettingChange, details: Record<string, unknown>): Promise<void> {
    return this.actions.record({
      userId: change.actor,
      action: 'commission_settings_changed',
      details: { change: change.change, ...details },
    });
  }

  private async profile(contractId: string, profileId: string, lock = false): Promise<ProfileRow> {
    const profile = await this.commissions.profile(contractId, profileId, lock);
    if (!profile) throw new ApiError('exception.commission.profile_not_found', 'No such commission profile in this contract');
    return profile;
  }

  private async rule(profileId: string, ruleId: string): Promise<RuleRow> {
    const rule = await this.commissions.rule(profileId, ruleId);
    if (!rule) throw new ApiError('exception.commission.rule_not_found', 'No such commission rule in this profile');
    return rule;
  }

  private async issuerExists(issuerId: string): Promise<void> {
    if (!(await this.commissions.issuerExists(issuerId))) throw new ApiError('exception.issuer.not_found', 'No such issuer');
  }

  /** Two active rules of a profile never cover the same moment. */
  private async assertNoOverlap(profileId: string, rule: { beginDate: Date; endDate: Date | null; active: boolean }, self: string | null) {
    if (!rule.active) return;
    const clashes = await this.commissions.overlappingRules(profileId, rule.beginDate, rule.endDate, self);
    if (clashes.length) {
      throw new ApiError('exception.commission.rule_overlap', `The dates meet those of the active rule ${clashes[0]} of this profile`);
    }
  }

  /**
   * Conditions as sent, checked against the profile's currency: amounts and fixed values with no
   * more decimals than it allows (400) — the minimum fee too —, each range's end after its begin (400), no two ranges
   * meeting (409). Values a type does not use are not stored.
   */
  private conditions(profile: ProfileRow, sent: CommissionConditionDto[], prefix: string): NewCondition[] {
    const scale = scaleOf(profile.issuer.fraction);
    const parsed = sent.map((c, i): NewCondition => {
      const at = (field: string) => [prefix, prefix ? String(i) : '', field].filter(Boolean).join('.');
      const beginAmount = parseAmount(c.beginAmount ?? '0', scale, at('beginAmount'), { allowZero: true });
      const endAmount = c.endAmount === undefined || c.endAmount === null ? null : parseAmount(c.endAmount, scale, at('endAmount'));
      if (endAmount && endAmount.lte(beginAmount)) throw ApiError.invalid(at('endAmount'), 'must be greater than beginAmount');
      const { type } = c.commission;
      const fixed = usesFixed(type) ? parseAmount(c.commission.valueFixed, scale, at('commission.valueFixed'), { allowZero: true }) : null;
      const percent = usesPercent(type) ? new Money(String(c.commission.valuePercent)) : null;
      const { minFee } = c.commission;
      return {
        beginAmount,
        endAmount,
        type,
        valuePercent: percent,
        valueFixed: fixed,
        rounding: c.commission.rounding ?? 'half_up',
        minFee: minFee === undefined || minFee === null ? null : parseAmount(minFee, scale, at('commission.minFee'), { allowZero: true }),
      };
    });
    const clash = overlappingRanges(parsed);
    if (clash) {
      throw new ApiError(
        'exception.commission.condition_overlap',
        `The amount ranges from ${clash[0].beginAmount.toFixed()} and from ${clash[1].beginAmount.toFixed()} overlap`,
      );
    }
    return parsed;
  }
}

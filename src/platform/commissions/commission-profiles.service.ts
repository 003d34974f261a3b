import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { Money, parseAmount, scaleOf } from '../common/money';
import { Page, pageOf, pageWindow } from '../common/paging.dto';
import { UnitOfWork } from '../database/unit-of-work';
import { LedgerService } from '../ledger/ledger.service';
import { toProfileDto, toRuleDto } from './commission.mapper';
import { overlappingRanges } from './commission-rules';
import { CommissionsRepository, NewCondition, ProfileRow, RuleRow } from './commissions.repository';
import type {
  CommissionProfileDto,
  CommissionProfileViewDto,
  CreateCommissionProfileDto,
  UpdateCommissionProfileDto,
} from './dto/commission-profile.dto';
import type {
  CommissionConditionDto,
  CommissionRuleDto,
  CommissionRuleViewDto,
  CreateCommissionRuleDto,
  UpdateCommissionRuleDto,
} from './dto/commission-rule.dto';
import { usesFixed, usesPercent } from './fee';

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
    private readonly uow: UnitOfWork,
  ) {}

  async createProfile(contractId: string, dto: CreateCommissionProfileDto): Promise<CommissionProfileDto> {
    return this.uow.run(async () => {
      // The fee of any of the profile's rules goes to the issuer's commission coin: it exists from now on (404 for an unknown issuer).
      await this.issuerExists(dto.issuerId);
      const id = await this.commissions.insertProfile({
        contractId,
        flow: dto.flow,
        issuerId: dto.issuerId,
        name: dto.name ?? null,
        description: dto.description ?? null,
        active: dto.active ?? true,
      });
      if (!id) {
        throw new ApiError(
          'exception.commission.profile_exists',
          `The contract already has a commission profile for ${dto.flow} and issuer ${dto.issuerId}`,
        );
      }
      await this.ledger.systemCoin(dto.issuerId, 'commission');
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

  async updateProfile(contractId: string, profileId: string, dto: UpdateCommissionProfileDto): Promise<CommissionProfileDto> {
    return this.uow.run(async () => {
      const current = await this.profile(contractId, profileId, true);
      await this.commissions.updateProfile(
        profileId,
        dto.name !== undefined ? dto.name : current.name,
        dto.description !== undefined ? dto.description : current.description,
        dto.active ?? current.active,
      );
      return this.getProfile(contractId, profileId);
    });
  }

  /** Deletes a profile with its rules and conditions; operations it priced keep their commission. */
  async deleteProfile(contractId: string, profileId: string): Promise<void> {
    await this.uow.run(async () => {
      await this.profile(contractId, profileId, true);
      await this.commissions.deleteProfile(profileId);
    });
  }

  /** Copies a contract's profiles, rules and conditions to another contract (`POST /contracts/{id}/copy`). */
  copyProfiles(fromContractId: string, toContractId: string): Promise<number> {
    return this.uow.run(() => this.commissions.copyProfiles(fromContractId, toContractId));
  }

  async createRule(contractId: string, profileId: string, dto: CreateCommissionRuleDto): Promise<CommissionRuleDto> {
    return this.uow.run(async () => {
      const profile = await this.profile(contractId, profileId, true);
      const conditions = this.conditions(profile, dto.conditions ?? [], 'conditions');
      const rule = { beginDate: new Date(dto.beginDate), endDate: dto.endDate ? new Date(dto.endDate) : null, active: dto.active ?? true };
      await this.assertNoOverlap(profileId, rule, null);
      const id = await this.commissions.insertRule(profileId, {
        beginDate: dto.beginDate,
        endDate: dto.endDate ?? null,
        payer: dto.payer,
        active: rule.active,
      });
      await this.commissions.insertConditions(id, conditions);
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
      payer: dto.filter?.payer,
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

  async updateRule(contractId: string, profileId: string, ruleId: string, dto: UpdateCommissionRuleDto): Promise<CommissionRuleDto> {
    return this.uow.run(async () => {
      const profile = await this.profile(contractId, profileId, true);
      const current = await this.rule(profileId, ruleId);
      const next = {
        beginDate: dto.beginDate !== undefined ? new Date(dto.beginDate) : current.begin_date,
        endDate: dto.endDate !== undefined ? (dto.endDate === null ? null : new Date(dto.endDate)) : current.end_date,
        payer: dto.payer ?? current.payer,
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
      return this.getRule(contractId, profileId, ruleId);
    });
  }

  async deleteRule(contractId: string, profileId: string, ruleId: string): Promise<void> {
    await this.uow.run(async () => {
      await this.profile(contractId, profileId, true);
      await this.rule(profileId, ruleId);
      await this.commissions.deleteRule(ruleId);
    });
  }

  /** Adds one condition to a rule; its amount range must not meet another of the rule's (409). */
  async addCondition(contractId: string, profileId: string, ruleId: string, dto: CommissionConditionDto): Promise<CommissionRuleDto> {
    return this.uow.run(async () => {
      const profile = await this.profile(contractId, profileId, true);
      const rule = await this.rule(profileId, ruleId);
      const [added] = this.conditions(profile, [dto], '');
      const existing = rule.conditions.map((c) => ({
        beginAmount: new Money(c.beginAmount),
        endAmount: c.endAmount === null ? null : new Money(c.endAmount),
      }));
      if (overlappingRanges([...existing, added])) {
        throw new ApiError('exception.commission.condition_overlap', 'The amount range meets another condition of the rule');
      }
      await this.commissions.insertConditions(ruleId, [added]);
      return this.getRule(contractId, profileId, ruleId);
    });
  }

  async deleteCondition(contractId: string, profileId: string, ruleId: string, conditionId: string): Promise<CommissionRuleDto> {
    return this.uow.run(async () => {
      await this.profile(contractId, profileId, true);
      await this.rule(profileId, ruleId);
      if (!(await this.commissions.deleteCondition(ruleId, conditionId))) {
        throw new ApiError('exception.commission.condition_not_found', 'No such condition in this rule');
      }
      return this.getRule(contractId, profileId, ruleId);
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

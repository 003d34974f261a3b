import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import { CommissionProfilesService } from '../../platform/commissions/commission-profiles.service';
import * as dto from '../../platform/commissions/dto/commission-profile.dto';
import * as ruleDto from '../../platform/commissions/dto/commission-rule.dto';
import { ContractsService } from './contracts.service';

const VIEWER = { access: ['COMMISSION_VIEWER'] } as const;
const MANAGER = { access: ['COMMISSION_MANAGER'] } as const;
// What is unknown answers a 404 (a malformed id is a 400): the contract, the profile, the rule, the condition.
const CONTRACT = ['exception.contract.not_found'] as const;
const PROFILE = [...CONTRACT, 'exception.commission.profile_not_found'] as const;
const RULE = [...PROFILE, 'exception.commission.rule_not_found'] as const;
const CONDITION = [...RULE, 'exception.commission.condition_not_found'] as const;
const OVERLAP = 'exception.commission.condition_overlap';

const NEW_PROFILE = { ...MANAGER, errors: [...CONTRACT, 'exception.issuer.not_found', 'exception.commission.profile_exists'] } as const;
const PROFILES = { ...VIEWER, errors: CONTRACT } as const;
const PROFILE_READ = { ...VIEWER, errors: PROFILE } as const;
const PROFILE_CHANGE = { ...MANAGER, errors: PROFILE } as const;
const RULE_READ = { ...VIEWER, errors: RULE } as const;
const RULE_WRITE = { ...MANAGER, errors: [...RULE, 'exception.commission.rule_overlap', OVERLAP] } as const;
const CONDITION_WRITE = { ...MANAGER, errors: [...RULE, OVERLAP] } as const;

const RULES = ':profileId/commission-rule';
const ONE_RULE = `${RULES}/:ruleId`;

/** A contract's commission profiles (one per flow and issuer), their rules and conditions; every route checks the contract first. */
@Routes('contracts/:contractId/commission-profiles', 'commissions')
export class CommissionProfilesController {
  constructor(
    private readonly contracts: ContractsService,
    private readonly profiles: CommissionProfilesService,
  ) {}

  /**
   * The profile of a flow (`flow`, or the family's `operationFlowId`) and an issuer: its rules price that flow for the contract's
   * organizations, the fees going to the issuer's commission coin.
   */
  @Route('POST', '', { ...NEW_PROFILE, summary: 'Create a commission profile' })
  createCommissionProfile(
    @UuidParam('contractId') contractId: string,
    @Body() body: dto.CreateCommissionProfileDto,
    @Caller() caller: Principal,
  ): Promise<dto.CommissionProfileResponseDto> {
    return this.profile(contractId, 'Commission profile created', () => this.profiles.createProfile(contractId, body, caller.userId));
  }

  /**
   * A profile of a multi-currency flow (`isMultiCurrency` in `GET /operation-flows`) from the source issuer's currency to the destination
   * issuer's, one per flow and pair of issuers: it prices those exchanges ahead of the flow's profile for the source issuer alone.
   */
  @Route('POST', 'multi-currency', { ...NEW_PROFILE, summary: 'Create a multi-currency commission profile' })
  createMultiCurrencyCommissionProfile(
    @UuidParam('contractId') contractId: string,
    @Body() body: dto.CreateMultiCurrencyProfileDto,
    @Caller() caller: Principal,
  ): Promise<dto.CommissionProfileResponseDto> {
    const created = () => this.profiles.createMultiCurrencyProfile(contractId, body, caller.userId);
    return this.profile(contractId, 'Commission profile created', created);
  }

  /** Every commission profile of a contract (the family's list; `POST …/view` filters and pages). */
  @Route('GET', '', { ...PROFILES, summary: "List a contract's commission profiles" })
  listCommissionProfiles(@UuidParam('contractId') contractId: string): Promise<dto.CommissionProfilePageDto> {
    return this.viewCommissionProfiles(contractId, { all: true });
  }

  /** A contract's commission profiles, by flow, issuer and active. */
  @Route('POST', 'view', { ...PROFILES, summary: "Search a contract's commission profiles", status: 200 })
  viewCommissionProfiles(
    @UuidParam('contractId') contractId: string,
    @Body() body: dto.CommissionProfileViewDto,
  ): Promise<dto.CommissionProfilePageDto> {
    return this.checked(contractId, () => this.profiles.viewProfiles(contractId, body));
  }

  /** One commission profile of a contract (its rules: `POST …/commission-rule/view`). */
  @Route('GET', ':profileId', { ...PROFILE_READ, summary: 'Get a commission profile' })
  getCommissionProfile(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
  ): Promise<dto.CommissionProfileResponseDto> {
    return this.profile(contractId, 'OK', () => this.profiles.getProfile(contractId, profileId));
  }

  /** Changes name, description or active (never flow or issuer); an inactive profile prices nothing: the flow is then free. */
  @Route('PATCH', ':profileId', { ...PROFILE_CHANGE, summary: 'Change a commission profile' })
  updateCommissionProfile(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @Body() body: dto.UpdateCommissionProfileDto,
    @Caller() caller: Principal,
  ): Promise<dto.CommissionProfileResponseDto> {
    const updated = () => this.profiles.updateProfile(contractId, profileId, body, caller.userId);
    return this.profile(contractId, 'Commission profile updated', updated);
  }

  /** Deletes the profile with its rules and conditions; operations it priced keep their commission. */
  @Route('DELETE', ':profileId', { ...PROFILE_CHANGE, summary: 'Delete a commission profile' })
  async deleteCommissionProfile(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @Caller() caller: Principal,
  ): Promise<dto.DeletedDto> {
    await this.checked(contractId, () => this.profiles.deleteProfile(contractId, profileId, caller.userId));
    return { status: 'ok', message: 'Commission profile deleted', id: profileId };
  }

  /** A rule with any conditions; who pays is `payer` or the family's `direction` (`OUT` sender, `IN` recipient, `SHARED` split). */
  @Route('POST', RULES, { ...RULE_WRITE, summary: 'Create a commission rule' })
  createCommissionRule(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @Body() body: ruleDto.CreateCommissionRuleDto,
    @Caller() caller: Principal,
  ): Promise<ruleDto.CommissionRuleResponseDto> {
    return this.rule(contractId, 'Commission rule created', () => this.profiles.createRule(contractId, profileId, body, caller.userId));
  }

  /** The profile's rules by date: `filterCriteria` is mandatory (400 without it; release 4.10.0). */
  @Route('POST', `${RULES}/view`, { ...VIEWER, summary: "Search a profile's commission rules", status: 200, errors: PROFILE })
  viewCommissionRules(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @Body() body: ruleDto.CommissionRuleViewDto,
  ): Promise<ruleDto.CommissionRulePageDto> {
    return this.checked(contractId, () => this.profiles.viewRules(contractId, profileId, body));
  }

  /** One rule of a commission profile with its conditions (amount ranges and their values). */
  @Route('GET', ONE_RULE, { ...RULE_READ, summary: 'Get a commission rule' })
  getCommissionRule(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('ruleId') ruleId: string,
  ): Promise<ruleDto.CommissionRuleResponseDto> {
    return this.rule(contractId, 'OK', () => this.profiles.getRule(contractId, profileId, ruleId));
  }

  /** Changes a rule; `conditions`, when given, replaces all of them. */
  @Route('PATCH', ONE_RULE, { ...RULE_WRITE, summary: 'Change a commission rule' })
  updateCommissionRule(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('ruleId') ruleId: string,
    @Body() body: ruleDto.UpdateCommissionRuleDto,
    @Caller() caller: Principal,
  ): Promise<ruleDto.CommissionRuleResponseDto> {
    const updated = () => this.profiles.updateRule(contractId, profileId, ruleId, body, caller.userId);
    return this.rule(contractId, 'Commission rule updated', updated);
  }

  /** Deletes a rule with its conditions; operations it priced keep their commission. */
  @Route('DELETE', ONE_RULE, { ...RULE_READ, ...MANAGER, summary: 'Delete a commission rule' })
  async deleteCommissionRule(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('ruleId') ruleId: string,
    @Caller() caller: Principal,
  ): Promise<dto.DeletedDto> {
    await this.checked(contractId, () => this.profiles.deleteRule(contractId, profileId, ruleId, caller.userId));
    return { status: 'ok', message: 'Commission rule deleted', id: ruleId };
  }

  /** Adds a condition, its amount range meeting no other condition of the rule; answers the rule. */
  @Route('POST', `${ONE_RULE}/conditions`, {
    ...CONDITION_WRITE,
    summary: 'Add a condition to a commission rule',
    aliases: { [`${ONE_RULE}/condition`]: 'createCommissionCondition' },
  })
  addCommissionCondition(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('ruleId') ruleId: string,
    @Body() body: ruleDto.CommissionConditionDto,
    @Caller() caller: Principal,
  ): Promise<ruleDto.CommissionRuleResponseDto> {
    const added = () => this.profiles.addCondition(contractId, profileId, ruleId, body, caller.userId);
    return this.rule(contractId, 'Condition added', added);
  }

  /** Replaces a condition's amount range and commission (it keeps its id; the range meets no other condition's); answers the rule. */
  @Route('PUT', `${ONE_RULE}/condition/:conditionId`, {
    ...CONDITION_WRITE,
    summary: 'Replace a condition of a commission rule',
    errors: [...CONDITION, OVERLAP],
  })
  updateCommissionCondition(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('ruleId') ruleId: string,
    @UuidParam('conditionId') conditionId: string,
    @Body() body: ruleDto.CommissionConditionDto,
    @Caller() caller: Principal,
  ): Promise<ruleDto.CommissionRuleResponseDto> {
    const updated = () => this.profiles.updateCondition(contractId, profileId, ruleId, conditionId, body, caller.userId);
    return this.rule(contractId, 'Condition updated', updated);
  }

  /** Removes a condition; answers the rule. */
  @Route('DELETE', `${ONE_RULE}/conditions/:conditionId`, {
    ...CONDITION_WRITE,
    summary: 'Remove a condition from a commission rule',
    errors: CONDITION,
    aliases: { [`${ONE_RULE}/condition/:conditionId`]: 'removeCommissionCondition' },
  })
  deleteCommissionCondition(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('ruleId') ruleId: string,
    @UuidParam('conditionId') conditionId: string,
    @Caller() caller: Principal,
  ): Promise<ruleDto.CommissionRuleResponseDto> {
    const removed = () => this.profiles.deleteCondition(contractId, profileId, ruleId, conditionId, caller.userId);
    return this.rule(contractId, 'Condition removed', removed);
  }

  /** The contract first (an unknown one is a 404 before anything else), then the work. */
  private async checked<T>(contractId: string, work: () => Promise<T>): Promise<T> {
    await this.contracts.get(contractId);
    return work();
  }

  private async profile(
    contractId: string,
    message: string,
    work: () => Promise<dto.CommissionProfileDto>,
  ): Promise<dto.CommissionProfileResponseDto> {
    return { status: 'ok', message, profile: await this.checked(contractId, work) };
  }

  private async rule(
    contractId: string,
    message: string,
    work: () => Promise<ruleDto.CommissionRuleDto>,
  ): Promise<ruleDto.CommissionRuleResponseDto> {
    return { status: 'ok', message, rule: await this.checked(contractId, work) };
  }
}

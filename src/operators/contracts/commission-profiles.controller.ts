import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import { CommissionProfilesService } from '../../platform/commissions/commission-profiles.service';
import {
  CommissionProfilePageDto,
  CommissionProfileResponseDto,
  CommissionProfileViewDto,
  CreateCommissionProfileDto,
  CreateMultiCurrencyProfileDto,
  DeletedDto,
  UpdateCommissionProfileDto,
} from '../../platform/commissions/dto/commission-profile.dto';
import {
  CommissionConditionDto,
  CommissionRulePageDto,
  CommissionRuleResponseDto,
  CommissionRuleViewDto,
  CreateCommissionRuleDto,
  UpdateCommissionRuleDto,
} from '../../platform/commissions/dto/commission-rule.dto';
import { ContractsService } from './contracts.service';

const NOT_FOUND = 'No such contract, profile or rule (a malformed id is a 400)';

/**
 * A contract's commission profiles (one per flow and issuer), their rules and the rules'
 * conditions. Every route checks the contract first: a malformed contractId or profileId is a
 * 400, an unknown one a 404 (specification section 7: never a 500).
 */
@ApiTags('commissions')
@Controller('contracts/:contractId/commission-profiles')
export class CommissionProfilesController {
  constructor(
    private readonly contracts: ContractsService,
    private readonly profiles: CommissionProfilesService,
  ) {}

  /**
   * Staff (COMMISSION_MANAGER) give a contract the commission profile of a flow (`flow`, or the family's
   * `operationFlowId`) and an issuer: one per flow and issuer (409 for a second). Its rules then price that flow for the
   * contract's organizations; the fees go to the issuer's commission coin. Recorded in the action log.
   */
  @Post()
  @RequirePermissions('COMMISSION_MANAGER')
  @ApiOperation({ summary: 'Create a commission profile', operationId: 'createCommissionProfile' })
  @ApiCreatedResponse({ type: CommissionProfileResponseDto })
  @ApiNotFoundResponse({ description: 'No such contract or issuer', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.commission.profile_exists', type: ErrorResponseDto })
  async create(
    @UuidParam('contractId') contractId: string,
    @Body() dto: CreateCommissionProfileDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CommissionProfileResponseDto> {
    await this.contracts.get(contractId);
    return {
      status: 'ok',
      message: 'Commission profile created',
      profile: await this.profiles.createProfile(contractId, dto, principal.userId),
    };
  }

  /**
   * A profile of a multi-currency flow (exchange, `isMultiCurrency` in `GET /operation-flows`) from the source issuer's
   * currency to the destination issuer's: it prices those exchanges ahead of the flow's profile for the source issuer
   * alone. One per flow and pair of issuers (409). Recorded in the action log.
   */
  @Post('multi-currency')
  @RequirePermissions('COMMISSION_MANAGER')
  @ApiOperation({ summary: 'Create a multi-currency commission profile', operationId: 'createMultiCurrencyCommissionProfile' })
  @ApiCreatedResponse({ type: CommissionProfileResponseDto })
  @ApiNotFoundResponse({ description: 'No such contract or issuer', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.commission.profile_exists', type: ErrorResponseDto })
  async createMultiCurrency(
    @UuidParam('contractId') contractId: string,
    @Body() dto: CreateMultiCurrencyProfileDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CommissionProfileResponseDto> {
    await this.contracts.get(contractId);
    return {
      status: 'ok',
      message: 'Commission profile created',
      profile: await this.profiles.createMultiCurrencyProfile(contractId, dto, principal.userId),
    };
  }

  /** Every commission profile of a contract (the family's list; `POST …/view` filters and pages). An unknown contract is a 404. */
  @Get()
  @RequirePermissions('COMMISSION_VIEWER')
  @ApiOperation({ summary: "List a contract's commission profiles", operationId: 'listCommissionProfiles' })
  @ApiOkResponse({ type: CommissionProfilePageDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async list(@UuidParam('contractId') contractId: string): Promise<CommissionProfilePageDto> {
    await this.contracts.get(contractId);
    return this.profiles.viewProfiles(contractId, { all: true });
  }

  /** A contract's commission profiles, by flow, issuer and active. An unknown contract is a 404. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('COMMISSION_VIEWER')
  @ApiOperation({ summary: "Search a contract's commission profiles", operationId: 'viewCommissionProfiles' })
  @ApiOkResponse({ type: CommissionProfilePageDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async view(@UuidParam('contractId') contractId: string, @Body() dto: CommissionProfileViewDto): Promise<CommissionProfilePageDto> {
    await this.contracts.get(contractId);
    return this.profiles.viewProfiles(contractId, dto);
  }

  /**
   * One commission profile of a contract (its rules: `POST …/commission-rule/view`). A profile of another contract is a
   * 404.
   */
  @Get(':profileId')
  @RequirePermissions('COMMISSION_VIEWER')
  @ApiOperation({ summary: 'Get a commission profile', operationId: 'getCommissionProfile' })
  @ApiOkResponse({ type: CommissionProfileResponseDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  async get(@UuidParam('contractId') contractId: string, @UuidParam('profileId') profileId: string): Promise<CommissionProfileResponseDto> {
    await this.contracts.get(contractId);
    return { status: 'ok', message: 'OK', profile: await this.profiles.getProfile(contractId, profileId) };
  }

  /**
   * Changes a profile's name, description or active; its flow and issuer never change. An inactive profile prices
   * nothing: the flow is then free for the contract's organizations.
   */
  @Patch(':profileId')
  @RequirePermissions('COMMISSION_MANAGER')
  @ApiOperation({ summary: 'Change a commission profile', operationId: 'updateCommissionProfile' })
  @ApiOkResponse({ type: CommissionProfileResponseDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  async update(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @Body() dto: UpdateCommissionProfileDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CommissionProfileResponseDto> {
    await this.contracts.get(contractId);
    return {
      status: 'ok',
      message: 'Commission profile updated',
      profile: await this.profiles.updateProfile(contractId, profileId, dto, principal.userId),
    };
  }

  /** Deletes the profile with its rules and conditions; operations it priced keep their commission. */
  @Delete(':profileId')
  @RequirePermissions('COMMISSION_MANAGER')
  @ApiOperation({ summary: 'Delete a commission profile', operationId: 'deleteCommissionProfile' })
  @ApiOkResponse({ type: DeletedDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  async delete(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DeletedDto> {
    await this.contracts.get(contractId);
    await this.profiles.deleteProfile(contractId, profileId, principal.userId);
    return { status: 'ok', message: 'Commission profile deleted', id: profileId };
  }

  /**
   * Creates a rule, with its conditions if given; who pays is `payer` or the family's `direction` (`OUT` sender, `IN`
   * recipient, `SHARED` split). Active rules of one profile never overlap in time (409).
   */
  @Post(':profileId/commission-rule')
  @RequirePermissions('COMMISSION_MANAGER')
  @ApiOperation({ summary: 'Create a commission rule', operationId: 'createCommissionRule' })
  @ApiCreatedResponse({ type: CommissionRuleResponseDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.commission.rule_overlap, exception.commission.condition_overlap', type: ErrorResponseDto })
  async createRule(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @Body() dto: CreateCommissionRuleDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CommissionRuleResponseDto> {
    await this.contracts.get(contractId);
    return {
      status: 'ok',
      message: 'Commission rule created',
      rule: await this.profiles.createRule(contractId, profileId, dto, principal.userId),
    };
  }

  /** The profile's rules by date: `filterCriteria` is mandatory (400 without it; release 4.10.0). */
  @Post(':profileId/commission-rule/view')
  @HttpCode(200)
  @RequirePermissions('COMMISSION_VIEWER')
  @ApiOperation({ summary: "Search a profile's commission rules", operationId: 'viewCommissionRules' })
  @ApiOkResponse({ type: CommissionRulePageDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  async viewRules(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @Body() dto: CommissionRuleViewDto,
  ): Promise<CommissionRulePageDto> {
    await this.contracts.get(contractId);
    return this.profiles.viewRules(contractId, profileId, dto);
  }

  /** One rule of a commission profile with its conditions (amount ranges and their values). */
  @Get(':profileId/commission-rule/:ruleId')
  @RequirePermissions('COMMISSION_VIEWER')
  @ApiOperation({ summary: 'Get a commission rule', operationId: 'getCommissionRule' })
  @ApiOkResponse({ type: CommissionRuleResponseDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  async getRule(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('ruleId') ruleId: string,
  ): Promise<CommissionRuleResponseDto> {
    await this.contracts.get(contractId);
    return { status: 'ok', message: 'OK', rule: await this.profiles.getRule(contractId, profileId, ruleId) };
  }

  /** Changes a rule; `conditions`, when given, replaces all of them. */
  @Patch(':profileId/commission-rule/:ruleId')
  @RequirePermissions('COMMISSION_MANAGER')
  @ApiOperation({ summary: 'Change a commission rule', operationId: 'updateCommissionRule' })
  @ApiOkResponse({ type: CommissionRuleResponseDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.commission.rule_overlap, exception.commission.condition_overlap', type: ErrorResponseDto })
  async updateRule(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('ruleId') ruleId: string,
    @Body() dto: UpdateCommissionRuleDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CommissionRuleResponseDto> {
    await this.contracts.get(contractId);
    return {
      status: 'ok',
      message: 'Commission rule updated',
      rule: await this.profiles.updateRule(contractId, profileId, ruleId, dto, principal.userId),
    };
  }

  /** Deletes a rule with its conditions; operations it priced keep their commission. */
  @Delete(':profileId/commission-rule/:ruleId')
  @RequirePermissions('COMMISSION_MANAGER')
  @ApiOperation({ summary: 'Delete a commission rule', operationId: 'deleteCommissionRule' })
  @ApiOkResponse({ type: DeletedDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  async deleteRule(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('ruleId') ruleId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DeletedDto> {
    await this.contracts.get(contractId);
    await this.profiles.deleteRule(contractId, profileId, ruleId, principal.userId);
    return { status: 'ok', message: 'Commission rule deleted', id: ruleId };
  }

  /** Adds a condition; its amount range must not meet another condition of the rule (409). Answers the rule. */
  @Post(':profileId/commission-rule/:ruleId/conditions')
  @RequirePermissions('COMMISSION_MANAGER')
  @ApiOperation({ summary: 'Add a condition to a commission rule', operationId: 'addCommissionCondition' })
  @ApiCreatedResponse({ type: CommissionRuleResponseDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.commission.condition_overlap', type: ErrorResponseDto })
  async addCondition(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('ruleId') ruleId: string,
    @Body() dto: CommissionConditionDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CommissionRuleResponseDto> {
    await this.contracts.get(contractId);
    return {
      status: 'ok',
      message: 'Condition added',
      rule: await this.profiles.addCondition(contractId, profileId, ruleId, dto, principal.userId),
    };
  }

  /** The family's path for adding a condition (`…/condition`): the same as `POST …/conditions`. */
  @Post(':profileId/commission-rule/:ruleId/condition')
  @RequirePermissions('COMMISSION_MANAGER')
  @ApiOperation({ summary: 'Add a condition to a commission rule (the family’s path)', operationId: 'createCommissionCondition' })
  @ApiCreatedResponse({ type: CommissionRuleResponseDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.commission.condition_overlap', type: ErrorResponseDto })
  createCondition(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('ruleId') ruleId: string,
    @Body() dto: CommissionConditionDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CommissionRuleResponseDto> {
    return this.addCondition(contractId, profileId, ruleId, dto, principal);
  }

  /**
   * Replaces a condition's amount range and commission (it keeps its id); the range must not meet another condition of
   * the rule (409). Answers the rule.
   */
  @Put(':profileId/commission-rule/:ruleId/condition/:conditionId')
  @RequirePermissions('COMMISSION_MANAGER')
  @ApiOperation({ summary: 'Replace a condition of a commission rule', operationId: 'updateCommissionCondition' })
  @ApiOkResponse({ type: CommissionRuleResponseDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.commission.condition_overlap', type: ErrorResponseDto })
  async updateCondition(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('ruleId') ruleId: string,
    @UuidParam('conditionId') conditionId: string,
    @Body() dto: CommissionConditionDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CommissionRuleResponseDto> {
    await this.contracts.get(contractId);
    return {
      status: 'ok',
      message: 'Condition updated',
      rule: await this.profiles.updateCondition(contractId, profileId, ruleId, conditionId, dto, principal.userId),
    };
  }

  /** Removes a condition; answers the rule. */
  @Delete(':profileId/commission-rule/:ruleId/conditions/:conditionId')
  @RequirePermissions('COMMISSION_MANAGER')
  @ApiOperation({ summary: 'Remove a condition from a commission rule', operationId: 'deleteCommissionCondition' })
  @ApiOkResponse({ type: CommissionRuleResponseDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  async deleteCondition(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('ruleId') ruleId: string,
    @UuidParam('conditionId') conditionId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CommissionRuleResponseDto> {
    await this.contracts.get(contractId);
    return {
      status: 'ok',
      message: 'Condition removed',
      rule: await this.profiles.deleteCondition(contractId, profileId, ruleId, conditionId, principal.userId),
    };
  }

  /** The family's path for removing a condition (`…/condition/{conditionId}`): the same as `DELETE …/conditions/{conditionId}`. */
  @Delete(':profileId/commission-rule/:ruleId/condition/:conditionId')
  @RequirePermissions('COMMISSION_MANAGER')
  @ApiOperation({ summary: 'Remove a condition from a commission rule (the family’s path)', operationId: 'removeCommissionCondition' })
  @ApiOkResponse({ type: CommissionRuleResponseDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  removeCondition(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('ruleId') ruleId: string,
    @UuidParam('conditionId') conditionId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CommissionRuleResponseDto> {
    return this.deleteCondition(contractId, profileId, ruleId, conditionId, principal);
  }
}

import { Body, Controller, Get, Patch, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import {
  CreateGateLimitProfileDto,
  CreateLimitProfileDto,
  LimitProfileListDto,
  LimitProfileResponseDto,
  UpdateLimitProfileDto,
} from './dto/limit-profile.dto';
import { LimitProfilesService } from './limit-profiles.service';

const NOT_FOUND = 'No such contract, profile or limit profile (a malformed id is a 400)';
const EXISTS = 'exception.limit_profile.exists: the profile has a limit of this kind already';

/**
 * The limit profiles of a contract's commission profiles and gate commission profiles (the client's limit tabs): the
 * kernel refuses, with a 409 `exception.limit.exceeded` naming the limit, any priced operation that would pass one.
 */
@ApiTags('commissions')
@Controller('contracts/:contractId')
export class LimitProfilesController {
  constructor(private readonly limits: LimitProfilesService) {}

  /** The limits of a commission profile, oldest first. Staff with LIMIT_PROFILE_VIEWER. */
  @Get('commission-profiles/:profileId/limit-profiles')
  @RequirePermissions('LIMIT_PROFILE_VIEWER')
  @ApiOperation({ summary: "List a commission profile's limits", operationId: 'listLimitProfiles' })
  @ApiOkResponse({ type: LimitProfileListDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  async list(@UuidParam('contractId') contractId: string, @UuidParam('profileId') profileId: string): Promise<LimitProfileListDto> {
    return { status: 'ok', message: 'OK', records: await this.limits.list(contractId, { kind: 'commission', profileId }) };
  }

  /**
   * Gives a commission profile a limit: the amount of one operation, or the amount or number of operations per day,
   * week, month, quarter, year (UTC) or ever, for each organization of the contract, on the profile's flow and
   * currency. One limit of each kind per profile (409); a quantity counts periods only (400). In the action log.
   */
  @Post('commission-profiles/:profileId/limit-profiles')
  @RequirePermissions('LIMIT_PROFILE_MANAGER')
  @ApiOperation({ summary: 'Create a limit of a commission profile', operationId: 'createLimitProfile' })
  @ApiCreatedResponse({ type: LimitProfileResponseDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  @ApiConflictResponse({ description: EXISTS, type: ErrorResponseDto })
  async create(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @Body() dto: CreateLimitProfileDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<LimitProfileResponseDto> {
    const limitProfile = await this.limits.create(principal, contractId, { kind: 'commission', profileId }, dto);
    return { status: 'ok', message: 'Limit profile created', limitProfile };
  }

  /** Changes a limit's value or active (the client's edit form); the next operation is held to it. In the action log. */
  @Patch('commission-profiles/:profileId/limit-profiles/:limitId')
  @RequirePermissions('LIMIT_PROFILE_MANAGER')
  @ApiOperation({ summary: 'Change a limit of a commission profile', operationId: 'updateLimitProfile' })
  @ApiOkResponse({ type: LimitProfileResponseDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  async update(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('limitId') limitId: string,
    @Body() dto: UpdateLimitProfileDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<LimitProfileResponseDto> {
    const limitProfile = await this.limits.update(principal, contractId, { kind: 'commission', profileId }, limitId, dto);
    return { status: 'ok', message: 'Limit profile updated', limitProfile };
  }

  /** The limits of a gate commission profile, oldest first. Staff with LIMIT_PROFILE_VIEWER. */
  @Get('gate-commission-profiles/:profileId/limit-profiles')
  @RequirePermissions('LIMIT_PROFILE_VIEWER')
  @ApiOperation({ summary: "List a gate commission profile's limits", operationId: 'listGateLimitProfiles' })
  @ApiOkResponse({ type: LimitProfileListDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  async listGate(@UuidParam('contractId') contractId: string, @UuidParam('profileId') profileId: string): Promise<LimitProfileListDto> {
    return { status: 'ok', message: 'OK', records: await this.limits.list(contractId, { kind: 'gate', profileId }) };
  }

  /**
   * Gives a gate commission profile a limit for its `TOPUP` or `REDEEM` transactions (`productId` null: every
   * product). One limit of each kind per transaction type (409). In the action log.
   */
  @Post('gate-commission-profiles/:profileId/limit-profiles')
  @RequirePermissions('LIMIT_PROFILE_MANAGER')
  @ApiOperation({ summary: 'Create a limit of a gate commission profile', operationId: 'createGateLimitProfile' })
  @ApiCreatedResponse({ type: LimitProfileResponseDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  @ApiConflictResponse({ description: EXISTS, type: ErrorResponseDto })
  async createGate(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @Body() dto: CreateGateLimitProfileDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<LimitProfileResponseDto> {
    const limitProfile = await this.limits.create(principal, contractId, { kind: 'gate', profileId }, dto);
    return { status: 'ok', message: 'Limit profile created', limitProfile };
  }

  /** Changes a gate limit's value or active. In the action log. */
  @Patch('gate-commission-profiles/:profileId/limit-profiles/:limitId')
  @RequirePermissions('LIMIT_PROFILE_MANAGER')
  @ApiOperation({ summary: 'Change a limit of a gate commission profile', operationId: 'updateGateLimitProfile' })
  @ApiOkResponse({ type: LimitProfileResponseDto })
  @ApiNotFoundResponse({ description: NOT_FOUND, type: ErrorResponseDto })
  async updateGate(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('limitId') limitId: string,
    @Body() dto: UpdateLimitProfileDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<LimitProfileResponseDto> {
    const limitProfile = await this.limits.update(principal, contractId, { kind: 'gate', profileId }, limitId, dto);
    return { status: 'ok', message: 'Limit profile updated', limitProfile };
  }
}

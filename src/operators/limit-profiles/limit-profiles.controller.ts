import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import * as dto from './dto/limit-profile.dto';
import { LimitOwner } from './limit-profiles.repository';
import { LimitProfilesService } from './limit-profiles.service';

const PROFILE = 'commission-profiles/:profileId/limit-profiles';
const GATE_PROFILE = `gate-${PROFILE}`;
const NOT_FOUND = [
  'exception.contract.not_found',
  'exception.commission.profile_not_found',
  'exception.gate_commission_profile.not_found',
] as const;
const VIEWER = { access: ['LIMIT_PROFILE_VIEWER'], errors: NOT_FOUND } as const;
const MANAGER = { access: ['LIMIT_PROFILE_MANAGER'] } as const;
const CREATE = {
  ...MANAGER,
  errors: [...NOT_FOUND, ['exception.limit_profile.exists', 'the profile has a limit of this kind already']],
} as const;

/** Whose limits the path names: a gate commission profile's (`…/gate-commission-profiles/…`, an alias) or a commission profile's. */
const OwnerKind = createParamDecorator((_: unknown, ctx: ExecutionContext): LimitOwner['kind'] =>
  (ctx.switchToHttp().getRequest<FastifyRequest>().routeOptions.url ?? '').includes(`/${GATE_PROFILE}`) ? 'gate' : 'commission',
);

/** The limits of a contract's commission and gate commission profiles: an operation passing one is a 409 `exception.limit.exceeded`. */
@Routes('contracts/:contractId', 'commissions')
export class LimitProfilesController {
  constructor(private readonly limits: LimitProfilesService) {}

  /** The limits of a commission profile or of a gate commission profile, oldest first. */
  @Route('GET', PROFILE, { ...VIEWER, summary: "List a profile's limits", aliases: { [GATE_PROFILE]: 'listGateLimitProfiles' } })
  async listLimitProfiles(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @OwnerKind() kind: LimitOwner['kind'],
  ): Promise<dto.LimitProfileListDto> {
    return { status: 'ok', message: 'OK', records: await this.limits.list(contractId, { kind, profileId }) };
  }

  /**
   * A limit on the amount of one operation, or the amount or number of operations per day, week, month, quarter, year (UTC) or ever, for
   * each organization of the contract, on the profile's flow and currency; a quantity counts periods only (400).
   */
  @Route('POST', PROFILE, { ...CREATE, summary: 'Create a limit of a commission profile' })
  createLimitProfile(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @Body() body: dto.CreateLimitProfileDto,
    @Caller() caller: Principal,
  ): Promise<dto.LimitProfileResponseDto> {
    return this.created(this.limits.create(caller, contractId, { kind: 'commission', profileId }, body));
  }

  /** A limit on the profile's `TOPUP` or `REDEEM` transactions (`productId` null: every product), one of each kind per transaction type. */
  @Route('POST', GATE_PROFILE, { ...CREATE, summary: 'Create a limit of a gate commission profile' })
  createGateLimitProfile(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @Body() body: dto.CreateGateLimitProfileDto,
    @Caller() caller: Principal,
  ): Promise<dto.LimitProfileResponseDto> {
    return this.created(this.limits.create(caller, contractId, { kind: 'gate', profileId }, body));
  }

  /** Changes a limit's value or active (the client's edit form); the next operation is held to it. */
  @Route('PATCH', `${PROFILE}/:limitId`, {
    ...MANAGER,
    summary: 'Change a limit of a profile',
    errors: [...NOT_FOUND, 'exception.limit_profile.not_found'],
    aliases: { [`${GATE_PROFILE}/:limitId`]: 'updateGateLimitProfile' },
  })
  async updateLimitProfile(
    @UuidParam('contractId') contractId: string,
    @UuidParam('profileId') profileId: string,
    @UuidParam('limitId') limitId: string,
    @OwnerKind() kind: LimitOwner['kind'],
    @Body() body: dto.UpdateLimitProfileDto,
    @Caller() caller: Principal,
  ): Promise<dto.LimitProfileResponseDto> {
    const limitProfile = await this.limits.update(caller, contractId, { kind, profileId }, limitId, body);
    return { status: 'ok', message: 'Limit profile updated', limitProfile };
  }

  private async created(limitProfile: Promise<dto.LimitProfileResponseDto['limitProfile']>): Promise<dto.LimitProfileResponseDto> {
    return { status: 'ok', message: 'Limit profile created', limitProfile: await limitProfile };
  }
}

import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { Money, parseAmount, scaleOf } from '../../platform/common/money';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { UserActionsService } from '../../platform/user-actions/user-actions.service';
import type { CreateGateLimitProfileDto, CreateLimitProfileDto, LimitProfileDto, UpdateLimitProfileDto } from './dto/limit-profile.dto';
import { LimitedProfileRow, LimitOwner, LimitProfileRow, LimitProfilesRepository } from './limit-profiles.repository';

/** The decimals a limit's value may have: its currency's for an amount (any for a gate's, of any currency), none for a count. */
function scaleFor(profile: LimitedProfileRow, qualifier: string): number {
  if (qualifier === 'quantity') return 0;
  return profile.fraction === null ? 18 : scaleOf(profile.fraction);
}

function toLimit(row: LimitProfileRow, profile: LimitedProfileRow): LimitProfileDto {
  const value = new Money(row.value);
  return {
    id: row.id,
    profileId: row.commission_profile_id,
    gateProfileId: row.gate_commission_profile_id,
    txType: row.tx_type,
    qualifier: row.qualifier,
    timeUnit: row.time_unit,
    value: amountOf(value, row.qualifier === 'amount' && profile.fraction !== null ? scaleOf(profile.fraction) : value.decimalPlaces()),
    active: row.active,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * The limit profiles of a contract's commission profiles and gate commission profiles: caps on one operation's amount
 * or on the amount or number of operations in a period, which the kernel enforces on every priced posting
 * (src/platform/commissions/limits.service.ts). Staff changes are in the action log.
 */
@Injectable()
export class LimitProfilesService {
  constructor(
    private readonly limits: LimitProfilesRepository,
    private readonly actions: UserActionsService,
    private readonly uow: UnitOfWork,
  ) {}

  async list(contractId: string, owner: LimitOwner): Promise<LimitProfileDto[]> {
    const profile = await this.profile(contractId, owner, false);
    return (await this.limits.list(owner)).map((row) => toLimit(row, profile));
  }

  async create(
    principal: Principal,
    contractId: string,
    owner: LimitOwner,
    dto: CreateLimitProfileDto | CreateGateLimitProfileDto,
  ): Promise<LimitProfileDto> {
    return this.uow.run(async () => {
      const profile = await this.profile(contractId, owner, true);
      if (dto.qualifier === 'quantity' && dto.timeUnit === 'per_transaction') {
        throw ApiError.invalid('timeUnit', 'must be a period for a quantity: one operation is always one');
      }
      const value = parseAmount(dto.value, scaleFor(profile, dto.qualifier), 'value', { allowZero: true });
      const txType = 'txType' in dto ? dto.txType : null;
      if (await this.limits.sameKind(owner, txType, dto.qualifier, dto.timeUnit)) {
        throw new ApiError(
          'exception.limit_profile.exists',
          `The profile already has a ${dto.qualifier} limit ${dto.timeUnit}${txType ? ` for ${txType}` : ''}: change it instead`,
        );
      }
      const row = await this.limits.insert(owner, {
        txType,
        qualifier: dto.qualifier,
        timeUnit: dto.timeUnit,
        value: value.toFixed(),
        active: dto.active ?? true,
      });
      const limit = toLimit(row, profile);
      await this.record(principal, 'limit_profile_created', contractId, limit);
      return limit;
    });
  }

  async update(
    principal: Principal,
    contractId: string,
    owner: LimitOwner,
    id: string,
    dto: UpdateLimitProfileDto,
  ): Promise<LimitProfileDto> {
    return this.uow.run(async () => {
      const profile = await this.profile(contractId, owner, true);
      const current = await this.limits.find(owner, id);
      if (!current) throw new ApiError('exception.limit_profile.not_found', 'No such limit profile of this profile');
      const value =
        dto.value === undefined
          ? new Money(current.value)
          : parseAmount(dto.value, scaleFor(profile, current.qualifier), 'value', { allowZero: true });
      const limit = toLimit(await this.limits.update(id, value.toFixed(), dto.active ?? current.active), profile);
      await this.record(principal, 'limit_profile_changed', contractId, limit, toLimit(current, profile));
      return limit;
    });
  }

  /** `POST /contracts/{id}/copy` with `copyLimits`: the copy's commission profiles get the original's limits; answers how many. */
  copy(fromContractId: string, toContractId: string): Promise<number> {
    return this.limits.copyCommissionLimits(fromContractId, toContractId);
  }

  /** The profile the limits hang on, or the 404 of the contract or of the profile. */
  private async profile(contractId: string, owner: LimitOwner, lock: boolean): Promise<LimitedProfileRow> {
    const profile =
      owner.kind === 'commission'
        ? await this.limits.commissionProfile(contractId, owner.profileId, lock)
        : await this.limits.gateProfile(contractId, owner.profileId, lock);
    if (profile) return profile;
    if (!(await this.limits.contractExists(contractId))) throw new ApiError('exception.contract.not_found', 'No such contract');
    throw owner.kind === 'commission'
      ? new ApiError('exception.commission.profile_not_found', 'No such commission profile of this contract')
      : new ApiError('exception.gate_commission_profile.not_found', 'No such gate commission profile of this contract');
  }

  private record(
    principal: Principal,
    action: 'limit_profile_created' | 'limit_profile_changed',
    contractId: string,
    limit: LimitProfileDto,
    before?: LimitProfileDto,
  ): Promise<void> {
    const state = (l: LimitProfileDto) => ({ value: String(l.value), active: l.active });
    return this.actions.record({
      userId: principal.userId,
      action,
      details: {
        contractId,
        limitProfileId: limit.id,
        ...(limit.profileId ? { profileId: limit.profileId } : { gateProfileId: limit.gateProfileId, txType: limit.txType }),
        qualifier: limit.qualifier,
        timeUnit: limit.timeUnit,
        ...state(limit),
        ...(before ? { before: state(before) } : {}),
      },
    });
  }
}

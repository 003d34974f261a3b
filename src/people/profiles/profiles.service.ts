import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { UserActionsService } from '../../platform/user-actions/user-actions.service';
import { contactOf, UsersService } from '../../platform/users/users.service';
import type {
  ChangeIdentificationDto,
  ResetIdentificationRequestDto,
  ResetIdentificationRequestViewDto,
  UpdateMyProfileDto,
  UserProfileDto,
} from './dto/people.dto';
import type { ProfileDto } from './dto/profile.dto';
import { PersonRow, ProfilesRepository, ResetRequestRow } from './profiles.repository';

function toResetRequest(row: ResetRequestRow): ResetIdentificationRequestDto {
  return {
    id: row.id,
    userId: row.user_id,
    organizationId: row.organization_id,
    reason: row.reason,
    status: row.status,
    createdBy: row.created_by,
    decidedBy: row.decided_by,
    decisionReason: row.decision_reason,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at ? row.decided_at.toISOString() : null,
  };
}

function toProfile(row: PersonRow): UserProfileDto {
  const [first, ...rest] = row.name.split(' ');
  return {
    user: { id: row.id, login: row.login, name: row.name, status: row.status },
    role: row.role,
    organization: {
      id: row.organization_id,
      type: row.organization_type,
      name: row.organization_name,
      identificationStatus: row.identification_status,
      contract_info: { id: row.contract_id, personType: row.person_type },
    },
    profile: {
      type: row.organization_type,
      identificationStatus: row.identification_status,
      person: {
        namePlain: { first: row.first_name ?? first, last: row.last_name ?? (row.first_name ? '' : rest.join(' ')) },
        birthDate: row.birth_date,
        address: row.address,
      },
      contact: contactOf(row),
    },
  };
}

@Injectable()
export class ProfilesService {
  constructor(
    private readonly users: UsersService,
    private readonly profiles: ProfilesRepository,
    private readonly actions: UserActionsService,
    private readonly uow: UnitOfWork,
  ) {}

  /** What the strategy read with the token, and the person, contact and memberships (one more query). */
  async my(principal: Principal): Promise<ProfileDto> {
    const user = await this.users.withMemberships(principal.userId);
    if (!user) throw new ApiError('exception.authorization.token_invalid');
    const { organization } = principal;
    // Without first and last names, the display name is split at its first space.
    const [first, ...rest] = user.name.split(' ');
    return {
      status: 'ok',
      message: 'OK',
      user: { id: principal.userId, login: user.login, name: user.name, status: user.status },
      role: principal.role,
      organization: {
        id: principal.organizationId,
        type: principal.organizationType,
        name: organization.name,
        identificationStatus: organization.identificationStatus,
        contract_info: { id: organization.contractId, personType: organization.personType },
      },
      permissions: [...principal.permissions].sort(),
      profile: {
        type: principal.organizationType,
        status: organization.identificationStatus,
        person: { namePlain: { first: user.first_name ?? first, last: user.last_name ?? (user.first_name ? '' : rest.join(' ')) } },
        contact: contactOf(user),
      },
      memberShips: user.memberships ?? [],
    };
  }

  /** A user's profile: the user themself, or staff with PROFILE_VIEWER; anyone else a 404. */
  async get(principal: Principal, userId: string): Promise<UserProfileDto> {
    return toProfile(await this.visible(principal, userId));
  }

  async updateMine(principal: Principal, dto: UpdateMyProfileDto): Promise<UserProfileDto> {
    if (dto.birthDate && dto.birthDate > new Date().toISOString().slice(0, 10)) {
      throw new ApiError('exception.validation', 'birthDate must not be in the future', [
        { parameter: 'birthDate', message: 'must not be in the future' },
      ]);
    }
    return this.uow.run(async () => {
      await this.profiles.updatePerson(principal.userId, dto);
      await this.actions.record({ userId: principal.userId, action: 'profile_changed', details: { fields: Object.keys(dto).sort() } });
      return toProfile((await this.profiles.person(principal.userId))!);
    });
  }

  /** Staff set the identification status of the user's organization, with a reason; recorded as a user action. */
  async changeIdentification(principal: Principal, userId: string, dto: ChangeIdentificationDto): Promise<UserProfileDto> {
    return this.uow.run(async () => {
      const person = await this.profiles.person(userId, true);
      if (!person) throw new ApiError('exception.profile.not_found');
      if (person.identification_status === dto.status) throw new ApiError('exception.identification.unchanged');
      await this.profiles.setIdentification(person.organization_id, dto.status);
      await this.actions.record({
        userId,
        actorUserId: principal.userId,
        action: 'identification_changed',
        details: { organizationId: person.organization_id, from: person.identification_status, to: dto.status, reason: dto.reason },
      });
      return toProfile((await this.profiles.person(userId))!);
    });
  }

  /** A request to reset an approved identification, by the user themself or by staff with PROFILE_VIEWER. */
  async requestReset(
    principal: Principal,
    userId: string,
    reason: string,
  ): Promise<{ request: ResetIdentificationRequestDto; identificationStatus: string }> {
    return this.uow.run(async () => {
      const person = await this.visible(principal, userId);
      if (person.identification_status !== 'approved') throw new ApiError('exception.reset_identification_request.not_approved');
      const row = await this.profiles.insertResetRequest({ userId, organizationId: person.organization_id, reason, by: principal.userId });
      if (!row) throw new ApiError('exception.reset_identification_request.pending');
      await this.actions.record({
        userId,
        actorUserId: principal.userId === userId ? null : principal.userId,
        action: 'identification_reset_requested',
        details: { resetIdentificationRequestId: row.id, organizationId: person.organization_id },
      });
      return { request: toResetRequest(row), identificationStatus: person.identification_status };
    });
  }

  async viewResets(
    principal: Principal,
    userId: string,
    dto: ResetIdentificationRequestViewDto,
  ): Promise<Page<ResetIdentificationRequestDto>> {
    await this.visible(principal, userId);
    const { offset, limit } = pageWindow(dto);
    const { total, rows } = await this.profiles.resetRequests(userId, dto.filter?.statuses, offset, limit);
    return pageOf(dto, total, rows.map(toResetRequest));
  }

  /** Compliance approves (the identification goes back to `none`) or declines a pending request; deciding twice is a 409. */
  async decideReset(
    principal: Principal,
    userId: string,
    id: string,
    decision: { approve: boolean; reason: string | null },
  ): Promise<{ request: ResetIdentificationRequestDto; identificationStatus: string }> {
    return this.uow.run(async () => {
      const row = await this.profiles.resetRequest(userId, id, true);
      if (!row) throw new ApiError('exception.reset_identification_request.not_found');
      if (row.status !== 'pending') throw new ApiError('exception.reset_identification_request.decided');
      const status = decision.approve ? 'approved' : 'declined';
      await this.profiles.decideResetRequest(id, { status, by: principal.userId, reason: decision.reason });
      if (decision.approve) await this.profiles.setIdentification(row.organization_id, 'none');
      await this.actions.record({
        userId,
        actorUserId: principal.userId,
        action: decision.approve ? 'identification_reset_approved' : 'identification_reset_declined',
        details: {
          resetIdentificationRequestId: id,
          organizationId: row.organization_id,
          ...(decision.reason ? { reason: decision.reason } : {}),
        },
      });
      const person = (await this.profiles.person(userId))!;
      return {
        request: toResetRequest((await this.profiles.resetRequest(userId, id))!),
        identificationStatus: person.identification_status,
      };
    });
  }

  /** The user, when the caller may see them: themself, or staff with PROFILE_VIEWER. */
  private async visible(principal: Principal, userId: string): Promise<PersonRow> {
    const person =
      principal.userId === userId || principal.permissions.has('PROFILE_VIEWER') ? await this.profiles.person(userId) : undefined;
    if (!person) throw new ApiError('exception.profile.not_found');
    return person;
  }
}

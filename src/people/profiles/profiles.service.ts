import { Injectable } from '@nestjs/common';
import { permissionsBeyond, Role } from '../../platform/access/permissions';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { NoticesService } from '../../platform/messages/notices.service';
import { OneTimeCodesService, WRONG_CODE } from '../../platform/one-time-codes/one-time-codes.service';
import { UserActionsService } from '../../platform/user-actions/user-actions.service';
import { contactOf, loginKind } from '../../platform/users/users.service';
import type {
  ChangeIdentificationDto,
  ResetIdentificationRequestDto,
  ResetIdentificationRequestViewDto,
  UpdateMyPersonDto,
  UpdateMyProfileDto,
  UpdateMySecurityDto,
  UpdateMySecuritySettingsDto,
  UserProfileDto,
} from './dto/people.dto';
import type { ProfileDataDto, ProfileDto } from './dto/profile.dto';
import type { UpdateAddressDto, UpdateBusinessDto } from './dto/staff.dto';
import { changeRequest } from './login-change';
import { ProfileCache } from './profile-cache';
import {
  Business,
  PersonFields,
  PersonRow,
  PostalAddress,
  ProfilesRepository,
  ResetRequestRow,
  SecuritySettings,
  UserPersonRow,
} from './profiles.repository';

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

const DAY_MS = 86_400_000;

/** Without first and last names, the display name is split at its first space. */
function namesOf(row: Pick<PersonRow, 'name' | 'first_name' | 'last_name'>): { first: string; last: string } {
  const [first, ...rest] = row.name.split(' ');
  return { first: row.first_name ?? first, last: row.last_name ?? (row.first_name ? '' : rest.join(' ')) };
}

/** Two-step login sends its codes to the login: one no code reaches (neither an e-mail address nor a phone number) cannot have it. */
function refuseUnreachable(login: string): void {
  if (loginKind(login) !== 'other') return;
  throw new ApiError('exception.two_factor.unreachable', undefined, [
    {
      parameter: 'security.twoFactorsAuthEnabled',
      message: 'your login is neither an e-mail address nor a phone number: no code can reach it',
    },
  ]);
}

/** The security settings with every absent one false. */
function securityOf(saved: Partial<SecuritySettings>): SecuritySettings {
  const channels = (c?: { phone?: boolean; email?: boolean }) => ({ phone: c?.phone === true, email: c?.email === true });
  return {
    twoFactorsAuthEnabled: saved.twoFactorsAuthEnabled === true,
    transactionNotification: channels(saved.transactionNotification),
    authorizationNotification: channels(saved.authorizationNotification),
  };
}

/** The profile as the family's screens read it, of `row`'s person in `organization`. */
function familyProfile(row: UserPersonRow, organization: { type: string; identificationStatus: string; name: string }): ProfileDataDto {
  const names = { ...namesOf(row), ...(row.middle_name ? { middle: row.middle_name } : {}) };
  return {
    type: organization.type,
    status: organization.identificationStatus,
    person: {
      namePlain: names,
      nameIntl: names,
      ...(row.person_email ? { email: row.person_email } : {}),
      ...(row.person_phone_number ? { phoneNumber: row.person_phone_number } : {}),
      dateOfBirth: row.birth_date,
      ...(row.description ? { description: row.description } : {}),
    },
    contact: contactOf(row),
    address: row.postal_address,
    business: {
      ...(organization.type === 'merchant' ? { companyName: organization.name, legal: organization.name } : {}),
      ...row.business,
    },
    security: securityOf(row.security_settings),
  };
}

/** The fields of `value` that are set: what the family's forms send is the whole thing, an absent field cleared. */
function present<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function postalAddressOf({ country, zipCode, city, street, houseNumber }: UpdateAddressDto['address']): PostalAddress {
  return present({ country, zipCode, city, street, houseNumber });
}

/** The business as the form sent it; an administrator with no field filled is left out. */
function businessOf({ companyName, type, vat, administrator }: UpdateBusinessDto): Business {
  const { firstName, lastName, email, phone } = administrator ?? {};
  const admin = present({ firstName, lastName, email, phone });
  return present({ companyName, type, vat, administrator: Object.keys(admin).length ? admin : undefined });
}

const kindOf = loginKind;

/** A language tag as kept: its language lower-case (`DE-at` → `de-at`). */
function languageTag(tag: string): string {
  const [language, ...rest] = tag.split('-');
  return [language.toLowerCase(), ...rest].join('-');
}

/** Where a notice to the user goes: their login when a message can reach it, else their e-mail, else their phone. */
function addressOf(person: Pick<PersonRow, 'login' | 'email' | 'phone_number'>): string | undefined {
  return kindOf(person.login) !== 'other' ? person.login : (person.email ?? person.phone_number ?? undefined);
}

/**
 * A birth date from a date, or from the date-time a date picker sends for local midnight: the day of the nearest UTC
 * midnight. Not in the future, not before 1900: else a 400 naming `parameter`.
 */
function birthDateOf(value: string, parameter: string): string {
  const day = value.length === 10 ? value : new Date(Math.round(Date.parse(value) / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
  if (day > new Date().toISOString().slice(0, 10)) {
    throw new ApiError('exception.validation', `${parameter} must not be in the future`, [
      { parameter, message: 'must not be in the future' },
    ]);
  }
  if (day < '1900-01-01') {
    throw new ApiError('exception.validation', `${parameter} must not be before 1900`, [{ parameter, message: 'must not be before 1900' }]);
  }
  return day;
}

/** The person fields of the family's person form. */
function personFieldsOf(dto: UpdateMyPersonDto): PersonFields {
  const { namePlain, email, phoneNumber, dateOfBirth, description } = dto.person;
  return {
    ...(namePlain ? { firstName: namePlain.first, lastName: namePlain.last, middleName: namePlain.middle ?? null } : {}),
    email,
    phoneNumber,
    description,
    birthDate: dateOfBirth ? birthDateOf(dateOfBirth, 'person.dateOfBirth') : dateOfBirth,
  };
}

function toProfile(row: PersonRow): UserProfileDto {
  const [first, ...rest] = row.name.split(' ');
  return {
    ...familyProfile(row, { type: row.organization_type, identificationStatus: row.identification_status, name: row.organization_name }),
    user: { id: row.id, login: row.login, name: row.name, status: row.status, ...(row.locale ? { locale: row.locale } : {}) },
    role: [{ code: row.role }],
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
    private readonly profiles: ProfilesRepository,
    private readonly actions: UserActionsService,
    private readonly uow: UnitOfWork,
    private readonly codes: OneTimeCodesService,
    private readonly notices: NoticesService,
    private readonly kept: ProfileCache,
  ) {}

  /** What the strategy read with the token, and the person, contact and memberships (kept: ProfileCache). */
  async my(principal: Principal): Promise<ProfileDto> {
    const user = await this.kept.mine(principal.userId, principal.organizationId, () =>
      this.profiles.mine(principal.userId, principal.organizationId),
    );
    if (!user) throw new ApiError('exception.authorization.token_invalid');
    const { organization } = principal;
    return {
      status: 'ok',
      message: 'OK',
      user: {
        id: principal.userId,
        login: user.login,
        name: user.name,
        status: user.status,
        ...(user.locale ? { locale: user.locale } : {}),
      },
      role: principal.role,
      organization: {
        id: principal.organizationId,
        type: principal.organizationType,
        name: organization.name,
        identificationStatus: organization.identificationStatus,
        contract_info: { id: organization.contractId, personType: organization.personType },
      },
      permissions: [...principal.permissions].sort(),
      profile: familyProfile(user, {
        type: principal.organizationType,
        identificationStatus: organization.identificationStatus,
        name: organization.name,
      }),
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
      await this.profiles.updatePerson(principal.userId, { ...dto, locale: dto.locale ? languageTag(dto.locale) : dto.locale });
      await this.actions.record({ userId: principal.userId, action: 'profile_changed', details: { fields: Object.keys(dto).sort() } });
      return toProfile((await this.profiles.person(principal.userId))!);
    });
  }

  /** The family's person form: names, the person's own e-mail and phone, birth date, description. */
  async updateMyPerson(principal: Principal, dto: UpdateMyPersonDto): Promise<ProfileDataDto> {
    const fields = personFieldsOf(dto);
    return this.editMine(principal, Object.keys(dto.person).sort(), () => this.profiles.updatePerson(principal.userId, fields));
  }

  /**
   * The caller's security settings (issue 46). Turning two-step login on needs a login a code reaches; turning it off
   * needs the `two_factor_off` code sent to the login: without `otp` the request sends one, changes nothing and
   * answers `400 exception.two_factor.code_required` (naming `otp`); with it, the code is checked (a wrong one counts
   * as any wrong code does) and the settings change in the transaction that uses it. Other changes need no code.
   */
  async updateMySecurity(principal: Principal, dto: UpdateMySecuritySettingsDto, address: string): Promise<ProfileDataDto> {
    const settings = securityOf(dto.security);
    const person = (await this.profiles.person(principal.userId))!;
    const current = securityOf(person.security_settings);
    const edit = () =>
      this.editMine(principal, ['security'], async () => {
        await this.profiles.setSecurity(principal.userId, settings);
        this.notices.settingsChanged();
      });
    if (settings.twoFactorsAuthEnabled && !current.twoFactorsAuthEnabled) refuseUnreachable(person.login);
    if (!current.twoFactorsAuthEnabled || settings.twoFactorsAuthEnabled) return edit();
    if (!dto.otp) {
      await this.codes.issue({
        purpose: 'two_factor_off',
        target: person.login,
        address,
        payload: { userId: principal.userId },
        deliver: true,
        locale: person.locale,
      });
      throw new ApiError('exception.two_factor.code_required', undefined, [
        { parameter: 'otp', message: 'a code was sent to your login: send it as otp to turn two-step login off' },
      ]);
    }
    return this.codes.consume(
      { purpose: 'two_factor_off', target: person.login, code: dto.otp, address, userId: principal.userId },
      async (payload) => {
        if (payload.userId !== principal.userId) throw WRONG_CODE();
        return edit();
      },
    );
  }

  /** One edit of the caller's own profile, recorded as a user action; answers the profile as `GET /profiles/my` does. */
  private editMine(principal: Principal, fields: string[], edit: () => Promise<void>): Promise<ProfileDataDto> {
    return this.uow.run(async () => {
      await edit();
      await this.actions.record({ userId: principal.userId, action: 'profile_changed', details: { fields } });
      const person = (await this.profiles.person(principal.userId))!;
      return familyProfile(person, {
        type: principal.organizationType,
        identificationStatus: principal.organization.identificationStatus,
        name: principal.organization.name,
      });
    });
  }

  /** Staff set the identification status of the user's organization, with a reason; recorded as a user action. */
  changeIdentification(principal: Principal, userId: string, dto: ChangeIdentificationDto): Promise<UserProfileDto> {
    return this.setIdentification(principal, userId, dto.status, dto.reason);
  }

  /**
   * The family's decisions, without a body: approve (`approved`), decline (`declined`) or reset (`none`) the
   * identification of the user's organization. The same status again is a 409.
   */
  decideIdentification(principal: Principal, userId: string, decision: 'approve' | 'decline' | 'reset'): Promise<UserProfileDto> {
    const status = { approve: 'approved', decline: 'declined', reset: 'none' }[decision];
    return this.setIdentification(principal, userId, status, null);
  }

  private setIdentification(principal: Principal, userId: string, status: string, reason: string | null): Promise<UserProfileDto> {
    return this.uow.run(async () => {
      const person = await this.profiles.person(userId, true);
      if (!person) throw new ApiError('exception.profile.not_found');
      if (person.identification_status === status) throw new ApiError('exception.identification.unchanged');
      await this.profiles.setIdentification(person.organization_id, status);
      await this.actions.record({
        userId,
        actorUserId: principal.userId,
        action: 'identification_changed',
        details: { organizationId: person.organization_id, from: person.identification_status, to: status, reason },
      });
      return toProfile((await this.profiles.person(userId))!);
    });
  }

  /** Staff edit a user's person: names, the person's own e-mail and phone, birth date, description (null clears one). */
  editPerson(principal: Principal, userId: string, dto: UpdateMyPersonDto): Promise<UserProfileDto> {
    const fields = personFieldsOf(dto);
    return this.editByStaff(principal, userId, Object.keys(dto.person).sort(), () => this.profiles.updatePerson(userId, fields));
  }

  /** Staff set a user's postal address, the whole of it. */
  editAddress(principal: Principal, userId: string, dto: UpdateAddressDto): Promise<UserProfileDto> {
    const address = postalAddressOf(dto.address);
    return this.editByStaff(principal, userId, ['address'], () => this.profiles.setPostalAddress(userId, address));
  }

  /** Staff set the business of the user's organization (the one their profile shows), the whole of it. */
  editBusiness(principal: Principal, userId: string, dto: UpdateBusinessDto): Promise<UserProfileDto> {
    const business = businessOf(dto);
    return this.editByStaff(principal, userId, ['business'], (person) => this.profiles.setBusiness(person.organization_id, business));
  }

  /** Staff set a user's settings: two-step login on (for a login a code reaches) or off (a user who lost their phone) without a code. */
  editSecurity(principal: Principal, userId: string, dto: UpdateMySecurityDto): Promise<UserProfileDto> {
    const settings = securityOf(dto.security);
    return this.editByStaff(principal, userId, ['security'], async (person) => {
      if (settings.twoFactorsAuthEnabled && !securityOf(person.security_settings).twoFactorsAuthEnabled) refuseUnreachable(person.login);
      await this.profiles.setSecurity(userId, settings);
      this.notices.settingsChanged();
    });
  }

  /**
   * Staff ask to change a user's login contact (an e-mail address or a phone number), and the login with it when the
   * login is of that kind or of neither (a login staff gave). Nothing changes now (issue 43): a login is the whole
   * account, money included, so it changes only once the new address proves itself with the code sent to it AND the
   * user confirms it in their own session (`POST /profiles/my/contact/confirm`); the user is told at their current
   * address. The contact the user already has changes nothing; another user's login is a 409; one's own login is the
   * self change, with its own proofs (403 here). Recorded as `login_change_requested` by the member of staff.
   */
  async editContact(principal: Principal, userId: string, login: string, address: string): Promise<UserProfileDto> {
    const target = login.toLowerCase();
    const kind = kindOf(target) as 'email' | 'phone';
    return this.uow.run(async () => {
      if (userId === principal.userId) {
        throw new ApiError('exception.profile.edit_forbidden', 'Change your own login at POST /profiles/my/contact, with its proofs');
      }
      const person = await this.editable(principal, userId);
      const current = kind === 'email' ? person.email : person.phone_number;
      if (current === target) return toProfile(person);
      if (await this.profiles.loginTaken(target, userId))
        throw new ApiError('exception.user.login_taken', 'A user with this login already exists');
      const asLogin = [kind, 'other'].includes(kindOf(person.login));
      const payload = changeRequest(person, 'staff', principal.userId);
      await this.codes.issue({ purpose: 'contact_change', target, address, payload, deliver: true });
      const told = addressOf(person);
      if (told) await this.codes.notify(told, 'login_change_requested', { newLogin: target });
      await this.actions.record({
        userId,
        actorUserId: principal.userId,
        action: 'login_change_requested',
        login: person.login,
        address,
        details: { kind, from: current, to: target, login: asLogin, told: told ?? null },
      });
      return toProfile(person);
    });
  }

  /** One edit of a user's profile by staff, recorded as `profile_changed` by them; answers the profile as `GET /profiles/{userId}` does. */
  private editByStaff(
    principal: Principal,
    userId: string,
    fields: string[],
    edit: (person: PersonRow) => Promise<void>,
  ): Promise<UserProfileDto> {
    return this.uow.run(async () => {
      const person = await this.editable(principal, userId);
      await edit(person);
      await this.actions.record({ userId, actorUserId: principal.userId, action: 'profile_changed', details: { fields } });
      return toProfile((await this.profiles.person(userId))!);
    });
  }

  /**
   * The user, locked, when the caller may edit their profile: a 404 for no such user, a 403 when the user holds
   * permissions the caller lacks (changing their login or settings would be a way into an account with more power).
   */
  private async editable(principal: Principal, userId: string): Promise<PersonRow> {
    const person = await this.profiles.person(userId, true);
    if (!person) throw new ApiError('exception.profile.not_found');
    const beyond = permissionsBeyond(principal.permissions, (await this.profiles.roles(userId)) as Role[]);
    if (beyond.length) {
      throw new ApiError(
        'exception.profile.edit_forbidden',
        `You may not edit the profile of a user holding permissions you lack (${beyond.join(', ')})`,
      );
    }
    return person;
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

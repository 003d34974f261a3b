import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Role, STAFF_ROLES } from '../access/permissions';
import type { Principal } from '../access/principal';
import { ApiError } from '../common/api-error';
import { Page, pageOf, PageRequestDto, pageWindow } from '../common/paging.dto';
import { APP_CONFIG, AppConfig } from '../config/config';
import { PASSWORD_HISTORY } from '../config/password-policy';
import { UnitOfWork } from '../database/unit-of-work';
import { OrganizationType, SUPPORT_ORGANIZATION_ID } from '../organizations/organization.types';
import { OrganizationsService } from '../organizations/organizations.service';
import type { UserActionDto } from '../user-actions/dto/user-action.dto';
import { UserActionsService } from '../user-actions/user-actions.service';
import { ContactDto, CreateUserDto, PHONE, USER_SORT_FIELDS, UserRecordDto, UserViewDto } from './dto/users.dto';
import { PasswordHasher } from './password-hasher';
import { FailedValidation, MembershipRow, UserRow, UsersRepository, UserSearch } from './users.repository';

export type { FailedValidation, MembershipRow, UserRow } from './users.repository';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** A user created: the record, and the temporary password when none was given (shown once). */
export interface CreatedUser {
  user: UserRecordDto;
  temporaryPassword?: string;
  temporaryPasswordExpiresAt?: string;
}

/** A user's contact, leaving out what the service does not know. */
export function contactOf(user: Pick<UserRow, 'email' | 'email_verified' | 'phone_number' | 'phone_verified'>): ContactDto {
  return {
    ...(user.email ? { email: user.email } : {}),
    emailVerified: user.email_verified,
    ...(user.phone_number ? { phoneNumber: user.phone_number } : {}),
    phoneVerified: user.phone_verified,
  };
}

/** What a login is: an e-mail address, a phone number, or (a login staff gave) neither, which no message can reach. */
export function loginKind(login: string): 'email' | 'phone' | 'other' {
  return login.includes('@') ? 'email' : PHONE.test(login) ? 'phone' : 'other';
}

/**
 * Whether the user's login was proven with a code: it is their e-mail address or phone number, and that contact is
 * verified (a sign-up, a confirmed change of login). One staff typed — at creation, or set before issue 43 — is not:
 * it may be anyone's address, so no recovery code goes there until the user proves it.
 */
export function loginProven(user: Pick<UserRow, 'login' | 'email' | 'email_verified' | 'phone_number' | 'phone_verified'>): boolean {
  return (user.login === user.email && user.email_verified) || (user.login === user.phone_number && user.phone_verified);
}

/** Which organization types a role may belong to. */
const ROLE_ORGANIZATIONS: Record<Role, OrganizationType[]> = Object.fromEntries(
  STAFF_ROLES.map((r) => [r, r === 'cashier' ? ['support', 'cash_desk'] : ['support']]),
) as Record<Role, OrganizationType[]>;
ROLE_ORGANIZATIONS.individual = ['individual'];
ROLE_ORGANIZATIONS.merchant = ['merchant'];

const SORT_COLUMNS: Record<(typeof USER_SORT_FIELDS)[number], UserSearch['sort']['column']> = {
  createdAt: 'created_at',
  login: 'login',
  name: 'name',
  status: 'status',
  active: 'active',
};

/**
 * Users and their memberships: creating, finding and listing them, and the account state the
 * login flow changes (failure counts, holds, passwords), which the auth module drives.
 */
@Injectable()
export class UsersService implements OnApplicationBootstrap {
  private readonly logger = new Logger('UsersService');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly organizations: OrganizationsService,
    private readonly userActions: UserActionsService,
    private readonly hasher: PasswordHasher,
    private readonly uow: UnitOfWork,
  ) {}

  /** Creates the first administrator when ADMIN_LOGIN does not exist yet. */
  async onApplicationBootstrap(): Promise<void> {
    if (await this.users.findByLogin(this.config.adminLogin)) {
      if (!this.config.adminPasswordGenerated) {
        // Silence here once cost an operator their way back in: say plainly that the variable did nothing.
        this.logger.warn(
          `ADMIN_PASSWORD is set but the administrator "${this.config.adminLogin}" already exists, so it was ignored: ` +
            `the password was not changed. To regain access, run "npm run admin:release -- ${this.config.adminLogin}" ` +
            `(see "Recovering access" in docs/operations.md) and unset ADMIN_PASSWORD.`,
        );
      }
      return;
    }
    const passwordHash = await this.hasher.hash(this.config.adminPassword);
    const created = await this.uow.run(async () => {
      const id = await this.users.insertUser({
        login: this.config.adminLogin,
        name: 'Administrator',
        passwordHash,
        temporaryUntil: null,
        firstName: null,
        lastName: null,
        email: EMAIL.test(this.config.adminLogin) ? this.config.adminLogin : null,
        phoneNumber: null,
      });
      if (!id) return false;
      await this.users.rememberPassword(id, passwordHash, PASSWORD_HISTORY);
      await this.users.insertMembership(id, SUPPORT_ORGANIZATION_ID, 'administrator');
      await this.userActions.record({
        userId: id,
        action: 'user_created',
        login: this.config.adminLogin,
        details: { role: 'administrator', bootstrap: true },
      });
      return true;
    });
    if (created && this.config.adminPasswordGenerated) {
      // Logged once, so the operator can log in the first time; a warning, so LOG_LEVEL=warn still shows it.
      this.logger.warn(
        `First administrator created: login ${this.config.adminLogin}, password ${this.config.adminPassword} (set ADMIN_PASSWORD to choose it)`,
      );
    } else if (created) {
      this.logger.log(`First administrator "${this.config.adminLogin}" created`);
    }
  }

  /** Creates a user with one membership; without a password, with a temporary one answered once. */
  async create(dto: CreateUserDto, actor: Principal, address: string): Promise<CreatedUser> {
    if (dto.legalType === 'corporation' && dto.role !== 'merchant') throw ApiError.invalid('legalType', 'applies to merchants only');
    let organizationId = dto.organizationId;
    if (organizationId) {
      const organization = await this.organizations.find(organizationId);
      if (!organization) throw new ApiError('exception.organization.not_found', 'No such organization');
      if (!ROLE_ORGANIZATIONS[dto.role].includes(organization.type)) {
        throw ApiError.invalid('role', `cannot belong to an organization of type ${organization.type}`);
      }
    }
    const temporaryPassword = dto.password === undefined ? this.hasher.temporaryPassword() : undefined;
    const temporaryUntil = temporaryPassword ? new Date(Date.now() + this.config.temporaryPasswordTtlSeconds * 1000) : null;
    const passwordHash = await this.hasher.hash(dto.password ?? temporaryPassword!);
    const login = dto.login.toLowerCase();
    const email = dto.email?.toLowerCase() ?? (EMAIL.test(login) ? login : null);
    const name = dto.name ?? ([dto.firstName, dto.lastName].filter(Boolean).join(' ') || login);
    const id = await this.uow.run(async () => {
      const userId = await this.users.insertUser({
        login,
        name,
        passwordHash,
        temporaryUntil,
        firstName: dto.firstName ?? null,
        lastName: dto.lastName ?? null,
        email,
        phoneNumber: dto.phoneNumber ?? null,
      });
      if (!userId) throw new ApiError('exception.user.login_taken', 'A user with this login already exists');
      if (!temporaryUntil) await this.users.rememberPassword(userId, passwordHash, PASSWORD_HISTORY);
      if (!organizationId) {
        organizationId =
          dto.role === 'individual' || dto.role === 'merchant'
            ? await this.organizations.create(dto.role, name, { email, phoneNumber: dto.phoneNumber })
            : SUPPORT_ORGANIZATION_ID;
      }
      await this.users.insertMembership(userId, organizationId, dto.role);
      await this.userActions.record({
        userId,
        actorUserId: actor.userId,
        action: 'user_created',
        login,
        address,
        details: { role: dto.role, organizationId, temporaryPassword: temporaryPassword !== undefined },
      });
      return userId;
    });
    return {
      user: await this.get(id),
      ...(temporaryPassword ? { temporaryPassword, temporaryPasswordExpiresAt: temporaryUntil!.toISOString() } : {}),
    };
  }

  /**
   * A user who signed themselves up (with a code sent to the login, so the login's contact is verified): their own
   * new organization, one membership. Inside the caller's unit of work; 409 when the login was taken meanwhile.
   */
  async register(login: string, role: 'individual' | 'merchant', passwordHash: string, address: string): Promise<string> {
    const email = EMAIL.test(login) ? login : null;
    const phoneNumber = email ? null : login;
    const userId = await this.users.insertUser({
      login,
      name: login,
      passwordHash,
      temporaryUntil: null,
      firstName: null,
      lastName: null,
      email,
      phoneNumber,
    });
    if (!userId) throw new ApiError('exception.user.login_taken', 'A user with this login already exists');
    await this.users.rememberPassword(userId, passwordHash, PASSWORD_HISTORY);
    const organizationId = await this.organizations.create(role, login, { email, phoneNumber });
    await this.users.insertMembership(userId, organizationId, role);
    await this.userActions.record({ userId, action: 'user_registered', login, address, details: { role, organizationId } });
    return userId;
  }

  async get(id: string): Promise<UserRecordDto> {
    const user = await this.users.findById(id);
    if (!user) throw new ApiError('exception.user.not_found', 'No such user');
    return this.toRecord(user, await this.users.memberships([id]));
  }

  async view(dto: UserViewDto): Promise<Page<UserRecordDto>> {
    const sortField = USER_SORT_FIELDS.find((f) => dto.sort?.[f] !== undefined) ?? 'createdAt';
    const { total, rows } = await this.users.search({
      ...(dto.filter ?? {}),
      sort: { column: SORT_COLUMNS[sortField], direction: (dto.sort?.[sortField] ?? 'desc') === 'asc' ? 'ASC' : 'DESC' },
      ...pageWindow(dto),
    });
    const memberships = await this.users.memberships(rows.map((r) => r.id));
    return pageOf(
      dto,
      total,
      rows.map((r) =>
        this.toRecord(
          r,
          memberships.filter((m) => m.user_id === r.id),
        ),
      ),
    );
  }

  async actions(id: string, page: PageRequestDto): Promise<Page<UserActionDto>> {
    if (!(await this.users.exists(id))) throw new ApiError('exception.user.not_found', 'No such user');
    return this.userActions.page(id, page);
  }

  /** The user by login (case-insensitive), locked for update when asked (inside a unit of work). */
  /** The user and all their memberships, for their profile. */
  withMemberships(id: string): ReturnType<UsersRepository['withMemberships']> {
    return this.users.withMemberships(id);
  }

  findByLogin(login: string, lock = false): Promise<UserRow | undefined> {
    return this.users.findByLogin(login, lock);
  }

  /** The user, locked for update when asked (inside a unit of work). */
  findById(id: string, lock = false): Promise<UserRow | undefined> {
    return this.users.findById(id, lock);
  }

  memberships(userId: string): Promise<MembershipRow[]> {
    return this.users.memberships([userId]);
  }

  /** Counts a failed validation of the login's password; the one that reaches `holdAfter` puts the user On Hold. */
  recordFailedValidation(login: string, holdAfter: number): Promise<FailedValidation | undefined> {
    return this.users.recordFailedValidation(login, holdAfter);
  }

  /** Deactivates or activates the user again (inside a unit of work); false when they already were so. */
  setDeactivated(userId: string, deactivated: boolean): Promise<boolean> {
    return this.users.setDeactivated(userId, deactivated);
  }

  /**
   * Resets the failure count while the user is active; false once held. With `passwordHash`, a login's: false too when
   * the user was deactivated or that is no longer their password by the time the row's lock is granted.
   */
  recordSuccess(userId: string, passwordHash?: string): Promise<boolean> {
    return this.uow.run(async () => {
      const user = await this.users.lockActive(userId, passwordHash);
      if (!user) return false;
      // Written only when there are failures to reset: a write of `users` drops what the caches keep of the user on
      // every instance, and on this one (WriteWatch goes by a statement's text) what they keep of everyone, at each login.
      if (user.failed_attempts > 0) await this.users.resetFailures(userId);
      return true;
    });
  }

  markTemporaryPasswordUsed(userId: string, passwordHash: string): Promise<boolean> {
    return this.users.markTemporaryPasswordUsed(userId, passwordHash);
  }

  /**
   * Sets a password (a temporary one when `temporaryUntil` is given) and makes the user active; a chosen
   * password joins the user's password history. Inside a unit of work.
   */
  async setPassword(userId: string, passwordHash: string, temporaryUntil: Date | null): Promise<void> {
    await this.users.setPassword(userId, passwordHash, temporaryUntil);
    if (!temporaryUntil) await this.users.rememberPassword(userId, passwordHash, PASSWORD_HISTORY);
  }

  /** Refuses (`exception.password.reused`, naming `field`) a `password` that is one of the user's last PASSWORD_HISTORY chosen ones. */
  async refuseRecentPassword(userId: string, password: string, field: string): Promise<void> {
    const hashes = await this.users.recentPasswordHashes(userId, PASSWORD_HISTORY);
    const matches = await Promise.all(hashes.map((h) => this.hasher.verify(password, h)));
    if (matches.includes(true)) {
      throw new ApiError(
        'exception.password.reused',
        `The new password is one of your last ${PASSWORD_HISTORY} passwords; choose another`,
        [{ parameter: field, message: `must not be one of your last ${PASSWORD_HISTORY} passwords` }],
      );
    }
  }

  private toRecord(user: UserRow, memberships: MembershipRow[]): UserRecordDto {
    return {
      id: user.id,
      login: user.login,
      name: user.name,
      firstName: user.first_name,
      lastName: user.last_name,
      contact: contactOf(user),
      status: user.status,
      active: user.deactivated_at === null,
      deactivatedAt: user.deactivated_at ? user.deactivated_at.toISOString() : null,
      banned: user.status === 'on_hold',
      failedAttempts: user.failed_attempts,
      passwordChangeRequired: user.password_change_required,
      heldAt: user.held_at ? user.held_at.toISOString() : null,
      banExpiryDate: null,
      createdAt: user.created_at.toISOString(),
      updatedAt: user.updated_at.toISOString(),
      members: memberships.map((m) => ({
        id: m.membership_id,
        role: m.role,
        organization: {
          id: m.organization_id,
          type: m.organization_type,
          name: m.organization_name,
          identificationStatus: m.identification_status,
          organizationStatus: m.identification_status,
        },
        contract_info: { id: m.contract_id, personType: m.person_type, name: m.contract_name },
      })),
    };
  }
}

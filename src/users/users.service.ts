import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { OrganizationType, Role, STAFF_ROLES } from '../access/permissions';
import type { Principal } from '../access/principal';
import { ApiError } from '../common/api-error';
import { pageOf, Page } from '../common/validators';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UnitOfWork } from '../database/unit-of-work';
import { CreateUserDto, ReleaseResponseDto, UserActionDto, UserRecordDto, UserViewDto, USER_SORT_FIELDS } from './dto/users.dto';
import { SUPPORT_ORGANIZATION_ID } from './users.types';
import { PasswordHasher } from './password-hasher';
import { MembershipRow, UserRow, UsersRepository } from './users.repository';

/** Which organization types a role may belong to. */
const ROLE_ORGANIZATIONS: Record<Role, OrganizationType[]> = Object.fromEntries(
  STAFF_ROLES.map((r) => [r, r === 'cashier' ? ['support', 'cash_desk'] : ['support']]),
) as Record<Role, OrganizationType[]>;
ROLE_ORGANIZATIONS.individual = ['individual'];
ROLE_ORGANIZATIONS.merchant = ['merchant'];

const SORT_COLUMNS: Record<(typeof USER_SORT_FIELDS)[number], string> = {
  createdAt: 'created_at',
  login: 'login',
  name: 'name',
  status: 'status',
};

@Injectable()
export class UsersService implements OnApplicationBootstrap {
  private readonly logger = new Logger('UsersService');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly uow: UnitOfWork,
  ) {}

  /** Creates the first administrator when ADMIN_LOGIN does not exist yet. */
  async onApplicationBootstrap(): Promise<void> {
    if (await this.users.findByLogin(this.config.adminLogin)) return;
    const passwordHash = await this.hasher.hash(this.config.adminPassword);
    const created = await this.uow.run(async (m) => {
      const id = await this.users.insertUser(this.config.adminLogin, 'Administrator', passwordHash, m);
      if (!id) return false;
      await this.users.insertMembership(id, SUPPORT_ORGANIZATION_ID, 'administrator', m);
      await this.users.recordAction(
        { userId: id, action: 'user_created', login: this.config.adminLogin, details: { role: 'administrator', bootstrap: true } },
        m,
      );
      return true;
    });
    if (created && this.config.adminPasswordGenerated) {
      // Printed once, on the console only, so the operator can log in the first time.
      process.stdout.write(
        `\nFirst administrator created: login "${this.config.adminLogin}", password "${this.config.adminPassword}". Set ADMIN_PASSWORD to choose it.\n\n`,
      );
    } else if (created) {
      this.logger.log(`First administrator "${this.config.adminLogin}" created`);
    }
  }

  async create(dto: CreateUserDto, actor: Principal, address: string): Promise<UserRecordDto> {
    let organizationId = dto.organizationId;
    if (organizationId) {
      const organization = await this.users.organization(organizationId);
      if (!organization) throw ApiError.notFound('exception.organization.not_found', 'No such organization');
      if (!ROLE_ORGANIZATIONS[dto.role].includes(organization.type)) {
        throw ApiError.invalid('role', `cannot belong to an organization of type ${organization.type}`);
      }
    }
    const passwordHash = await this.hasher.hash(dto.password);
    const id = await this.uow.run(async (m) => {
      const userId = await this.users.insertUser(dto.login, dto.name, passwordHash, m);
      if (!userId) throw ApiError.conflict('exception.user.login_taken', 'A user with this login already exists');
      if (!organizationId) {
        organizationId =
          dto.role === 'individual' || dto.role === 'merchant'
            ? await this.users.createOrganization(dto.role, dto.name, m)
            : SUPPORT_ORGANIZATION_ID;
      }
      await this.users.insertMembership(userId, organizationId, dto.role, m);
      await this.users.recordAction(
        {
          userId,
          actorUserId: actor.userId,
          action: 'user_created',
          login: dto.login.toLowerCase(),
          address,
          details: { role: dto.role, organizationId },
        },
        m,
      );
      return userId;
    });
    return this.get(id);
  }

  async get(id: string): Promise<UserRecordDto> {
    const user = await this.users.findById(id);
    if (!user) throw ApiError.notFound('exception.user.not_found', 'No such user');
    return this.toRecord(user, await this.users.memberships([id]));
  }

  async view(dto: UserViewDto): Promise<Page<UserRecordDto>> {
    const pageSize = dto.pageSize ?? 20;
    const sortField = USER_SORT_FIELDS.find((f) => dto.sort?.[f] !== undefined) ?? 'createdAt';
    const direction = (dto.sort?.[sortField] ?? 'desc') === 'asc' ? 'ASC' : 'DESC';
    const { total, rows } = await this.users.search(
      dto.filter ?? {},
      { column: SORT_COLUMNS[sortField], direction },
      (dto.pageNumber ?? 0) * pageSize,
      pageSize,
    );
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

  async release(id: string, actor: Principal, address: string): Promise<ReleaseResponseDto> {
    const temporaryPassword = this.hasher.temporaryPassword();
    const passwordHash = await this.hasher.hash(temporaryPassword);
    const expiresAt = new Date(Date.now() + this.config.temporaryPasswordTtlSeconds * 1000);
    await this.uow.run(async (m) => {
      const user = await this.users.findById(id, m, true);
      if (!user) throw ApiError.notFound('exception.user.not_found', 'No such user');
      if (user.status !== 'on_hold') throw ApiError.conflict('exception.user.not_on_hold', 'The user is not On Hold');
      await this.users.setPassword(id, passwordHash, expiresAt, m);
      await this.users.revokeTokens(id, m);
      await this.users.recordAction(
        {
          userId: id,
          actorUserId: actor.userId,
          action: 'user_released',
          login: user.login,
          address,
          details: { temporaryPasswordExpiresAt: expiresAt.toISOString() },
        },
        m,
      );
    });
    return {
      status: 'ok',
      message: 'User released; give them the temporary password',
      temporaryPassword,
      expiresAt: expiresAt.toISOString(),
    };
  }

  async actions(id: string, page: { pageNumber?: number; pageSize?: number }): Promise<Page<UserActionDto>> {
    if (!(await this.users.findById(id))) throw ApiError.notFound('exception.user.not_found', 'No such user');
    const pageSize = page.pageSize ?? 20;
    const { total, rows } = await this.users.actions(id, (page.pageNumber ?? 0) * pageSize, pageSize);
    return pageOf(
      page,
      total,
      rows.map((r) => ({
        id: r.id as string,
        action: r.action as string,
        login: r.login as string | null,
        address: r.address as string | null,
        actorUserId: r.actor_user_id as string | null,
        details: r.details as Record<string, unknown>,
        createdAt: (r.created_at as Date).toISOString(),
      })),
    );
  }

  private toRecord(user: UserRow, memberships: MembershipRow[]): UserRecordDto {
    return {
      id: user.id,
      login: user.login,
      name: user.name,
      status: user.status,
      failedAttempts: user.failed_attempts,
      passwordChangeRequired: user.password_change_required,
      heldAt: user.held_at ? user.held_at.toISOString() : null,
      createdAt: user.created_at.toISOString(),
      updatedAt: user.updated_at.toISOString(),
      members: memberships.map((m) => ({
        id: m.membership_id,
        role: m.role,
        organization: { id: m.organization_id, type: m.organization_type, name: m.organization_name },
      })),
    };
  }
}

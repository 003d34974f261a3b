import { randomBytes } from 'node:crypto';
import { ADMIN_LOGIN, ADMIN_PASSWORD, startServer, TestServer } from './server';

export interface Actor {
  id: string;
  login: string;
  password: string;
  token: string;
  organizationId: string;
  role: string;
}

export async function login(server: TestServer, loginName: string, password: string): Promise<string> {
  const response = await server.request('POST', '/api/v1/authorization', { body: { login: loginName, password } });
  if (response.status !== 200) throw new Error(`login ${loginName} failed: ${response.status} ${response.text}`);
  return response.body.authorizationToken.token as string;
}

export async function adminToken(server: TestServer): Promise<string> {
  return login(server, ADMIN_LOGIN, ADMIN_PASSWORD);
}

/** A service started on a fresh database (`env` adds to its environment) and its administrator's token. */
export async function serviceWithAdmin(env?: Record<string, string>): Promise<{ server: TestServer; admin: string }> {
  const server = await startServer(env);
  return { server, admin: await adminToken(server) };
}

export function uniqueLogin(prefix = 'user'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** Creates a user through the admin API and logs them in. */
export async function aUser(
  server: TestServer,
  admin: string,
  options: { role?: string; organizationId?: string; login?: string; password?: string; name?: string } = {},
): Promise<Actor> {
  const role = options.role ?? 'individual';
  const loginName = options.login ?? uniqueLogin(role);
  const password = options.password ?? `pw-${randomBytes(6).toString('hex')}`;
  const created = await server.request('POST', '/api/v1/users', {
    token: admin,
    body: {
      login: loginName,
      password,
      name: options.name ?? `Test ${role}`,
      role,
      ...(options.organizationId ? { organizationId: options.organizationId } : {}),
    },
  });
  if (created.status !== 201) throw new Error(`creating ${loginName} failed: ${created.status} ${created.text}`);
  const user = created.body.user;
  return {
    id: user.id,
    login: loginName.toLowerCase(),
    password,
    token: await login(server, loginName, password),
    organizationId: user.members[0].organization.id,
    role,
  };
}

/** Every staff role, in the order the release lists them (the service's STAFF_ROLES is held to it). */
export const STAFF_ROLES_IN_ORDER = [
  'administrator',
  'cfo',
  'compliance_manager',
  'compliance_specialist',
  'customer_support',
  'antifraud_specialist',
  'accountant',
  'cashier',
];

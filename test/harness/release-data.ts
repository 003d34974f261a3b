import { login } from '../helpers/actors';
import { aFee, percent } from '../helpers/commissions';
import { ADMIN_LOGIN, ADMIN_PASSWORD, request, TestServer } from '../helpers/server';

/**
 * The data a backup, a restore or an upgrade must carry over, made through the API of a running service (today's, or
 * a previous release's: scripts/release-fixture.mjs runs it against one): money (top-ups and transfers), a fee (a
 * commission rule that charges the payer 1 %), a hold (a bank withdrawal waiting for staff) and the actions all of
 * that writes to the action log. Only HTTP, so any release with the same API can be given data by it.
 */

/** A user the data made, and how to log in as them afterwards. */
export interface DataUser {
  login: string;
  password: string;
  coinSerial: string;
}

/** What the data is, read back through the API: each coin's amounts as exact text. */
export interface ReleaseData {
  currencyCode: string;
  users: Record<'alice' | 'bob', DataUser>;
  /** The bank withdrawal waiting for staff: its amount is held on Bob's coin. */
  pendingWithdrawalId: string;
  balances: Record<string, CoinAmounts>;
}

export interface CoinAmounts {
  amount: string;
  heldAmount: string;
  availableAmount: string;
}

/** Enough of TestServer for the shared helpers (actors, commissions), over plain HTTP. */
function client(url: string): TestServer {
  return { request: (method: string, path: string, options?: object) => request(url, method, path, options) } as unknown as TestServer;
}

async function ok(what: string, answer: Promise<{ status: number; text: string; body: any }>): Promise<any> {
  const response = await answer;
  if (response.status < 200 || response.status > 299) throw new Error(`${what} failed: ${response.status} ${response.text}`);
  return response.body;
}

export async function adminOf(url: string): Promise<string> {
  return login(client(url), ADMIN_LOGIN, ADMIN_PASSWORD);
}

/** Each coin's amounts now, as `GET /coins/{serial}` answers them to its owner. */
export async function readBalances(url: string, users: ReleaseData['users']): Promise<Record<string, CoinAmounts>> {
  const server = client(url);
  const balances: Record<string, CoinAmounts> = {};
  for (const user of Object.values(users)) {
    const token = await login(server, user.login, user.password);
    const { coin } = await ok('reading a coin', server.request('GET', `/api/v1/coins/${user.coinSerial}`, { token }));
    balances[user.coinSerial] = {
      amount: String(coin.amount),
      heldAmount: String(coin.heldAmount),
      availableAmount: String(coin.availableAmount),
    };
  }
  return balances;
}

/** A transfer of `amount` from Alice's coin to Bob's (Alice pays the 1 % fee on top). */
export async function transferAliceToBob(url: string, data: Pick<ReleaseData, 'users'>, amount: string): Promise<void> {
  const server = client(url);
  const { alice, bob } = data.users;
  const token = await login(server, alice.login, alice.password);
  await ok(
    'a transfer',
    server.request('POST', '/api/v1/transfers', {
      token,
      body: { paymentTool: { type: 'COIN', srcValue: alice.coinSerial, destValue: bob.coinSerial }, amount },
    }),
  );
}

/** Makes the data on the service at `url` (its administrator is ADMIN_LOGIN / ADMIN_PASSWORD of the tests). */
export async function makeReleaseData(url: string, suffix = ''): Promise<ReleaseData> {
  const server = client(url);
  const admin = await adminOf(url);
  const currencyCode = `BK${suffix}`.slice(0, 10).toUpperCase();
  const { currency } = await ok(
    'a currency',
    server.request('POST', '/api/v1/currencies', { token: admin, body: { code: currencyCode, name: 'Backup euro' } }),
  );
  const { issuer } = await ok(
    'an issuer',
    server.request('POST', '/api/v1/issuers', { token: admin, body: { currencyCode: currency.code, name: 'Backup bank' } }),
  );
  const users = {} as ReleaseData['users'];
  const organizations: Record<string, string> = {};
  for (const name of ['alice', 'bob'] as const) {
    const userLogin = `${name}-ops${suffix}`.toLowerCase();
    const password = `${name}-password-1`;
    const { user } = await ok(
      'a user',
      server.request('POST', '/api/v1/users', {
        token: admin,
        body: { login: userLogin, password, name: `${name[0].toUpperCase()}${name.slice(1)} Ops`, role: 'individual' },
      }),
    );
    organizations[name] = user.members[0].organization.id;
    const token = await login(server, userLogin, password);
    const { coin } = await ok('a coin', server.request('POST', '/api/v1/coins', { token, body: { issuerId: issuer.id, name: 'Wallet' } }));
    users[name] = { login: userLogin, password, coinSerial: coin.serial };
  }
  await aFee(server, admin, { organizationId: organizations.alice, issuerId: issuer.id, conditions: percent('1') });
  for (const [name, amount] of [
    ['alice', '1000.00'],
    ['bob', '50.00'],
  ] as const) {
    await ok(
      'a bank top-up',
      server.request('POST', '/api/v1/bank-top-ups', { token: admin, body: { coinSerial: users[name].coinSerial, amount } }),
    );
  }
  await transferAliceToBob(url, { users }, '100.00');
  await transferAliceToBob(url, { users }, '12.34');
  // Bob asks for 20.00 to his bank account: held on his coin until staff decide.
  const bob = await login(server, users.bob.login, users.bob.password);
  const { bankAccount } = await ok(
    'a bank account',
    server.request('POST', '/api/v1/bank-accounts', {
      token: bob,
      body: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', accountHolder: 'Bob Ops', bankName: 'Commerzbank' },
    }),
  );
  const { bankWithdrawal } = await ok(
    'a bank withdrawal request',
    server.request('POST', '/api/v1/bank-withdrawals/create-request', {
      token: bob,
      body: { coinSerial: users.bob.coinSerial, amount: '20.00', bankAccountId: bankAccount.id },
    }),
  );
  return { currencyCode: currency.code, users, pendingWithdrawalId: bankWithdrawal.id, balances: await readBalances(url, users) };
}

// `node dist/test/harness/release-data.js <url>`: makes the data there and prints it (scripts/release-fixture.mjs).
if (require.main === module) {
  makeReleaseData(process.argv[2]).then(
    (data) => process.stdout.write(`${JSON.stringify(data, null, 2)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}

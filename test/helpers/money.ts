import { randomBytes } from 'node:crypto';
import Decimal from 'decimal.js';
import { ApiResponse, RequestOptions, startServer, TestServer } from './server';

/** Exact decimal arithmetic for assertions (amounts never pass through a JS number). */
export const Dec = Decimal.clone({ precision: 80, toExpNeg: -40, toExpPos: 40 });

export function sumOf(amounts: string[]): Decimal {
  return amounts.reduce((sum, a) => sum.plus(a), new Dec(0));
}

export interface Recorded {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

/**
 * Wraps a server so every answer is recorded: `expectCleanResponses()` then asserts that none was
 * a 5xx and that every error answer had the convention's body shape.
 */
export function recording(server: TestServer): TestServer & { recorded: Recorded[]; expectCleanResponses(): void } {
  const recorded: Recorded[] = [];
  return {
    ...server,
    recorded,
    async request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>> {
      const response = await server.request<T>(method, path, options);
      recorded.push({ method, path, status: response.status, body: response.body });
      return response;
    },
    expectCleanResponses() {
      const seen = recorded.splice(0);
      const faults = seen.filter((r) => r.status >= 500).map((r) => `${r.method} ${r.path} → ${r.status} ${JSON.stringify(r.body)}`);
      expect(faults).toEqual([]);
      const malformed = seen
        .filter((r) => r.status >= 400 && !hasErrorShape(r.body))
        .map((r) => `${r.method} ${r.path} → ${r.status} ${JSON.stringify(r.body)}`);
      expect(malformed).toEqual([]);
    },
  };
}

/**
 * Two instances of the service over one database, each recording its answers (`recording`), with Server-Timing on (so
 * `dbCalls` counts a request's statements): started before the suite, their answers checked clean after each test,
 * stopped after the suite. For the suites of what one instance keeps and another must hear of (the caches).
 */
export function twoInstances(): { readonly a: ReturnType<typeof recording>; readonly b: ReturnType<typeof recording> } {
  let a: ReturnType<typeof recording> | undefined;
  let b: ReturnType<typeof recording> | undefined;
  beforeAll(async () => {
    a = recording(await startServer({ SERVER_TIMING: 'true' }));
    b = recording(await startServer({ DATABASE_URL: a.databaseUrl, SERVER_TIMING: 'true' }));
  });
  afterEach(() => {
    a?.expectCleanResponses();
    b?.expectCleanResponses();
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });
  return {
    get a() {
      return a!;
    },
    get b() {
      return b!;
    },
  };
}

function hasErrorShape(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  return (
    Object.keys(b).sort().join(',') === 'code,errors,message,requestId,status' &&
    b.status === 'error' &&
    typeof b.code === 'string' &&
    /^exception(\.[a-z_]+)+$/.test(b.code) &&
    typeof b.message === 'string' &&
    Array.isArray(b.errors) &&
    typeof b.requestId === 'string' &&
    !/at \w+ \(|QueryFailedError|node_modules|SELECT |INSERT |Error:/.test(JSON.stringify(b))
  );
}

/** Asserts an error answer: its status, the convention's shape and (optionally) its code and a field path. */
export function expectError(response: ApiResponse, status: number, code?: string, parameter?: string): void {
  const context = `${response.status} ${response.text}`;
  expect(`${response.status}`).toBe(`${status}`);
  expect(hasErrorShape(response.body)).toBe(true);
  if (code) expect({ code: response.body.code, context }).toEqual({ code, context });
  if (parameter) expect(response.body.errors.map((e: { parameter: string }) => e.parameter)).toContain(parameter);
}

/** Asserts a success status, showing the body when it is not. */
export function expectStatus(response: ApiResponse, status: number): void {
  expect({ status: response.status, body: response.status === status ? 'ok' : response.body }).toEqual({ status, body: 'ok' });
}

export function uniqueCode(prefix = 'X'): string {
  return `${prefix}${randomBytes(4).toString('hex').toUpperCase()}`.slice(0, 10);
}

export interface CurrencyBody {
  id: string;
  code: string;
  fraction: number;
  [key: string]: unknown;
}

export async function aCurrency(
  server: TestServer,
  admin: string,
  options: { code?: string; fraction?: number | string; name?: string } = {},
): Promise<CurrencyBody> {
  const code = options.code ?? uniqueCode();
  const response = await server.request('POST', '/api/v1/currencies', {
    token: admin,
    body: { code, name: options.name ?? `Currency ${code}`, ...(options.fraction !== undefined ? { fraction: options.fraction } : {}) },
  });
  if (response.status !== 201) throw new Error(`creating currency ${code} failed: ${response.status} ${response.text}`);
  return response.body.currency;
}

export interface IssuerBody {
  id: string;
  sn: number;
  name: string;
  active: boolean;
  currency: CurrencyBody;
}

export async function anIssuer(server: TestServer, admin: string, currencyCode: string, name = 'Issuer bank'): Promise<IssuerBody> {
  const response = await server.request('POST', '/api/v1/issuers', { token: admin, body: { currencyCode, name } });
  if (response.status !== 201) throw new Error(`creating issuer failed: ${response.status} ${response.text}`);
  return response.body.issuer;
}

export interface CoinBody {
  serial: string;
  name: string;
  amount: string;
  availableAmount: string;
  heldAmount: string;
  main: boolean;
  active: boolean;
  issuer: { id: string; sn: number; currency: CurrencyBody };
  [key: string]: unknown;
}

export async function aCoin(server: TestServer, token: string, issuerId: string, name = 'Wallet'): Promise<CoinBody> {
  const response = await server.request('POST', '/api/v1/coins', { token, body: { issuerId, name } });
  if (response.status !== 201) throw new Error(`creating coin failed: ${response.status} ${response.text}`);
  return response.body.coin;
}

/** Credits a coin through a bank top-up (staff) and answers the operation. */
export async function fund(server: TestServer, admin: string, serial: string, amount: string, customInformation?: string): Promise<any> {
  const response = await server.request('POST', '/api/v1/bank-top-ups', {
    token: admin,
    body: { coinSerial: serial, amount, ...(customInformation !== undefined ? { customInformation } : {}) },
  });
  if (response.status !== 201) throw new Error(`top-up of ${serial} failed: ${response.status} ${response.text}`);
  return response.body.process;
}

export function transfer(
  server: TestServer,
  token: string,
  from: string,
  to: string,
  amount: string | number,
  extra: { description?: string; customInformation?: string; key?: string } = {},
): Promise<ApiResponse> {
  const { key, ...rest } = extra;
  return server.request('POST', '/api/v1/transfers', {
    token,
    headers: key !== undefined ? { 'idempotency-key': key } : {},
    body: { paymentTool: { type: 'COIN', srcValue: from, destValue: to }, amount, ...rest },
  });
}

export async function coinOf(server: TestServer, token: string, serial: string): Promise<CoinBody> {
  const response = await server.request('GET', `/api/v1/coins/${serial}`, { token });
  if (response.status !== 200) throw new Error(`reading coin ${serial} failed: ${response.status} ${response.text}`);
  return response.body.coin;
}

/** The balance as the exact text of its JSON number (a whole amount of a currency without decimals is a number). */
export async function balanceOf(server: TestServer, token: string, serial: string): Promise<string | number> {
  return (await coinOf(server, token, serial)).amount;
}

export async function ledgerCheck(server: TestServer, admin: string): Promise<any> {
  const response = await server.request('GET', '/api/v1/actuator/ledger-check', { token: admin });
  if (response.status !== 200) throw new Error(`ledger-check failed: ${response.status} ${response.text}`);
  return response.body;
}

/** Asserts the ledger is balanced, showing its mismatches when it is not. */
export async function expectBalancedLedger(server: TestServer, admin: string): Promise<void> {
  const check = await ledgerCheck(server, admin);
  expect(check.mismatches).toEqual([]);
  expect(check).toMatchObject({ status: 'ok', balanced: true });
}

/** What settling or reversing an operation leaves as it was. */
const LASTING = ['id', 'type', 'createdAt', 'amount', 'currency', 'from', 'to', 'sender', 'recipient', 'reversalOf'];
const lasting = (operation: any) => Object.fromEntries(LASTING.map((key) => [key, operation[key]]));

/**
 * What the family's record (OperationRecordDto: the history's, a system operation's `process`) adds to an operation:
 * derived from the operation and the caller, so not part of what GET /transactions/{id} reads back. Its `children` are
 * the operation's sides, each with the record's fields too.
 */
const RECORD_FIELDS = [
  'clientCoin',
  'coin',
  'incomingAmount',
  'outgoingAmount',
  'netAmount',
  'cashAmount',
  'invoiceAmount',
  'invoiceIdentifier',
  'merchantCoinSerial',
  'posCompanyName',
  'operationAmountDetails',
  'categoryName',
  'categoryImageLink',
];
const CHILD_RECORD_FIELDS = [
  ...RECORD_FIELDS,
  'amount',
  'commission',
  'description',
  'from',
  'to',
  'sender',
  'recipient',
  'requestIdentifier',
  'requestStatus',
];
const without = (value: any, keys: string[]) => Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));
/** The operation of an answer that may be the family's record. */
function operationOf(answered: any): any {
  // A withdrawal request's answer names its holder and bank beside its operation (POST /bank-withdrawals).
  const answer = 'bankInfo' in answered ? without(answered, ['fullName', 'bankInfo']) : answered;
  if (!('netAmount' in answer)) return answer;
  const sides = answer.children.map((side: any) => ({ ...without(side, CHILD_RECORD_FIELDS), coin: side.coin }));
  return { ...without(answer, RECORD_FIELDS), children: sides };
}

/**
 * Asserts that each operation a request answered is what GET /transactions/{id} reads back (the posting answers its
 * projection without reading it again). Of an operation settled or reversed since, the parts that never change.
 */
export async function expectAnswersReadBack(server: TestServer, admin: string, answers: Iterable<any>): Promise<number> {
  let compared = 0;
  for (const answered of answers) {
    const answer = operationOf(answered);
    const read = await server.request('GET', `/api/v1/transactions/${answer.id}`, { token: admin });
    expect(read.status).toBe(200);
    if (read.body.process.status === answer.status) expect(read.body.process).toEqual(answer);
    else expect(lasting(read.body.process)).toEqual(lasting(answer));
    compared++;
  }
  return compared;
}

/** Asserts an operation's legs: what moved from which coin to which, each amount positive. */
export function expectLegs(process: any, legs: [from: string, to: string, amount: string | number][]): void {
  expect(process.transactions.map((t: any) => [t.from.serial, t.to.serial, t.amount])).toEqual(legs);
  const coin = (c: any) => ({
    serial: expect.stringMatching(/^\d+$/),
    name: expect.any(String),
    organizationId: expect.any(String),
    organizationName: expect.any(String),
    technical: c.type === 'system',
    type: expect.stringMatching(/^(client|system)$/),
    issuer: {
      id: expect.any(String),
      sn: expect.any(Number),
      currency: expect.any(String),
      symbol: c.issuer.symbol === null ? null : expect.any(String),
    },
  });
  for (const t of process.transactions) {
    expect(t).toEqual({
      id: expect.any(String),
      type: expect.stringMatching(/^(transfer|commission|issue|redeem|reversal|commission_reversal)$/),
      amount: expect.anything(),
      issuer: t.from.issuer,
      from: coin(t.from),
      to: coin(t.to),
      performedAt: t.createdAt,
      updatedAt: t.createdAt,
      createdAt: expect.any(String),
    });
    expect(new Dec(String(t.amount)).isPositive() && !new Dec(String(t.amount)).isZero()).toBe(true);
  }
}

/**
 * Asserts the books of a money-integrity run: each coin (of `currencyId`, or of every currency) holds exactly what
 * the answered operations moved to and from it, its ledger entries sum to its balance, and no client coin spends
 * more than it has (balance − held ≥ 0). `context` names the run (its seed) in every failure. Answers the coins read.
 */
export async function expectCoinsMatchAnswers(
  db: { query(sql: string, params?: unknown[]): Promise<{ rows: any[] }> },
  operations: Iterable<{ transactions: { from: { serial: string }; to: { serial: string }; amount: string | number }[] }>,
  context: unknown,
  currencyId?: string,
): Promise<{ serial: string; type: string; balance: string; held: string }[]> {
  const expected = new Map<string, Decimal>();
  const add = (serial: string, value: Decimal) => expected.set(serial, (expected.get(serial) ?? new Dec(0)).plus(value));
  for (const operation of operations) {
    for (const leg of operation.transactions) {
      add(leg.from.serial, new Dec(String(leg.amount)).negated());
      add(leg.to.serial, new Dec(String(leg.amount)));
    }
  }
  const coins = (
    await db.query(
      `SELECT c.serial::text AS serial, c.type, c.balance::text AS balance, c.held::text AS held,
              COALESCE((SELECT sum(amount) FROM ledger_entries e WHERE e.coin_serial = c.serial), 0)::text AS entries
         FROM coins c WHERE $1::uuid IS NULL OR c.currency_id = $1`,
      [currencyId ?? null],
    )
  ).rows;
  for (const c of coins) {
    const row = { context, serial: c.serial };
    expect({ ...row, balance: new Dec(c.balance).toFixed(), entries: new Dec(c.entries).eq(c.balance) }).toEqual({
      ...row,
      balance: (expected.get(c.serial) ?? new Dec(0)).toFixed(),
      entries: true,
    });
    if (c.type === 'client')
      expect({ ...row, negative: new Dec(c.balance).minus(c.held).isNegative() }).toEqual({ ...row, negative: false });
  }
  return coins;
}

/** The paging envelope of a first page (of 20) holding all `totalRecords`: the records are checked apart. */
export function aWholeFirstPage(totalRecords: number) {
  return { status: 'ok', message: 'OK', pageNumber: 0, pageSize: 20, totalRecords, totalPages: 1, records: expect.any(Array) };
}

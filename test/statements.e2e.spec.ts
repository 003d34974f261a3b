import { coinOf, Dec, expectError, expectStatus, transfer } from './helpers/money';
import { moneyWorld } from './helpers/world';

describe('coin statements (issue 17)', () => {
  const world = moneyWorld();
  const statement = (token: string, serial: string, query = '') =>
    world.server.request('GET', `/api/v1/coins/${serial}/statement${query}`, { token });

  it('answers the opening balance, each entry with its operation, counterparty and running balance, and a closing balance equal to the coin’s', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [mine, theirs] = await world.pair(alice, bob, '100.00');
    await world.server.request('POST', '/api/v1/bank-top-ups', {
      token: world.admin,
      body: { coinSerial: theirs.serial, amount: '50.00' },
    });
    expectStatus(await transfer(world.server, alice.token, mine.serial, theirs.serial, '10.25', { description: 'rent' }), 201);
    expectStatus(await transfer(world.server, bob.token, theirs.serial, mine.serial, '0.50'), 201);
    expectStatus(await transfer(world.server, alice.token, mine.serial, theirs.serial, '3.00'), 201);

    const answer = await statement(alice.token, mine.serial);
    expectStatus(answer, 200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const body = answer.body;
    expect(body).toMatchObject({
      status: 'ok',
      serial: mine.serial,
      currency: world.currency.code,
      dateFrom: null,
      openingBalance: '0.00',
    });
    expect(body.entries.map((e: any) => [e.amount, e.balance])).toEqual([
      ['100.00', '100.00'],
      ['-10.25', '89.75'],
      ['0.50', '90.25'],
      ['-3.00', '87.25'],
    ]);
    expect(body.entries[1]).toMatchObject({
      operationType: 'client_transaction_transfer',
      operationStatus: 'processed',
      description: 'rent',
      counterparty: { serial: theirs.serial, organizationId: bob.organizationId },
    });
    expect(body.closingBalance).toBe('87.25');
    expect(String((await coinOf(world.server, alice.token, mine.serial)).amount)).toBe(body.closingBalance);
    // Exact decimals on the wire, as everywhere.
    expect(answer.text).toContain('"closingBalance":87.25}');

    // From the second entry on: the opening balance is what came before.
    const from = body.entries[1].createdAt;
    const later = await statement(alice.token, mine.serial, `?dateFrom=${encodeURIComponent(from)}`);
    expectStatus(later, 200);
    expect(later.body.openingBalance).toBe('100.00');
    expect(later.body.entries).toHaveLength(3);
    expect(later.body.closingBalance).toBe('87.25');
    // A range that ends before anything happened.
    const empty = await statement(alice.token, mine.serial, '?dateFrom=2020-01-01&dateTo=2020-02-01');
    expect(empty.body).toMatchObject({ openingBalance: '0.00', entries: [], closingBalance: '0.00', dateFrom: '2020-01-01T00:00:00.000Z' });
  });

  it('streams the same statement as CSV, rows summing to the closing balance', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [mine, theirs] = await world.pair(alice, bob, '20.00');
    for (let i = 0; i < 5; i++)
      expectStatus(
        await transfer(world.server, alice.token, mine.serial, theirs.serial, '1.10', {
          description: i === 0 ? '=cmd, "quoted"' : undefined,
        }),
        201,
      );
    const answer = await statement(alice.token, mine.serial, '?format=csv');
    expectStatus(answer, 200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="statement-${mine.serial}.csv"`);
    const lines = answer.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'entryId,operationId,operationType,operationStatus,createdAt,description,amount,balance,counterpartySerial,counterpartyOrganizationId',
    );
    expect(lines[1]).toMatch(/^,,opening_balance,,,,,0\.00,,$/);
    expect(lines).toHaveLength(1 + 1 + 6 + 1);
    expect(lines[3]).toContain(`,"'=cmd, ""quoted""",-1.10,18.90,${theirs.serial},${bob.organizationId}`);
    const amounts = lines.slice(2, -1).map((l) => l.split(',').at(-4)!);
    const closing = lines.at(-1)!.split(',')[7];
    expect(closing).toBe('14.50');
    expect(amounts.reduce((s, a) => s.plus(a), new Dec(0)).toFixed(2)).toBe(closing);
    expect(String((await coinOf(world.server, alice.token, mine.serial)).amount)).toBe(closing);
  });

  it('writes no formula into the payee’s CSV: a description starting with - + = @ is prefixed with a quote, amounts stay numbers', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [mine, theirs] = await world.pair(alice, bob, '20.00');
    const attack = "-1+cmd|' /C calc'!A0";
    expectStatus(await transfer(world.server, alice.token, mine.serial, theirs.serial, '1.10', { description: attack }), 201);
    expectStatus(await transfer(world.server, alice.token, mine.serial, theirs.serial, '2.00', { description: '@SUM(1+1)' }), 201);

    const payee = (await statement(bob.token, theirs.serial, '?format=csv')).text.trim().split('\r\n');
    expect(payee).toHaveLength(1 + 1 + 2 + 1);
    expect(payee[2]).toContain(`,"'${attack}",1.10,1.10,${mine.serial},${alice.organizationId}`);
    expect(payee[3]).toContain(`,"'@SUM(1+1)",2.00,3.10,${mine.serial},${alice.organizationId}`);
    expect(payee.at(-1)).toMatch(/,closing_balance,,[^,]+,,,3\.10,,$/);
    // The payer's side: the same text escaped, negative amounts plain numbers.
    const payer = (await statement(alice.token, mine.serial, '?format=csv')).text.trim().split('\r\n');
    expect(payer[3]).toContain(`,"'${attack}",-1.10,18.90,${theirs.serial},${bob.organizationId}`);
    expect(payer[4]).toContain(`,"'@SUM(1+1)",-2.00,16.90,`);
    // No cell of either file starts like a formula unless it is a plain number.
    for (const line of [...payee, ...payer]) {
      for (const cell of line.split(',')) expect(/^[=+@\t\r]|^-(?!\d+\.\d+$)/.test(cell)).toBe(false);
    }
  });

  it('is for the coin’s owners and staff with COIN_VIEWER only; bad queries are 400s', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [mine] = await world.pair(alice, bob, '5.00');
    expectError(await statement(bob.token, mine.serial), 404, 'exception.coin.not_found');
    expectError(await statement(bob.token, mine.serial, '?format=csv'), 404, 'exception.coin.not_found');
    expectError(await statement(alice.token, '999999999999'), 404, 'exception.coin.not_found');
    const staff = await statement(world.admin, mine.serial);
    expectStatus(staff, 200);
    expect(staff.body.closingBalance).toBe('5.00');
    expectError(await statement(alice.token, mine.serial, '?format=xml'), 400, 'exception.validation', 'format');
    expectError(await statement(alice.token, mine.serial, '?dateFrom=yesterday'), 400, 'exception.validation', 'dateFrom');
    expectError(await statement(alice.token, mine.serial, '?dateFrom=2026-02-01&dateTo=2026-01-01'), 400, 'exception.validation', 'dateTo');
    expectError(await statement(alice.token, 'abc'), 400, 'exception.validation', 'serial');
    expectError(await world.server.request('GET', `/api/v1/coins/${mine.serial}/statement`), 401);
  });
});

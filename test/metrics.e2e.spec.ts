import { expectError, expectStatus, transfer } from './helpers/money';
import { runRunbook } from './helpers/runbook';
import { moneyWorld } from './helpers/world';

const METRICS_TOKEN = 'scraper-secret-0123456789';

describe('Prometheus metrics (issue 17)', () => {
  const world = moneyWorld({ env: { METRICS_TOKEN } });
  const scrape = (headers: Record<string, string> = {}, token?: string) =>
    world.server.request('GET', '/api/v1/actuator/prometheus', { headers, token });

  it('after a transfer, shows the route-templated request histogram and the ledger counter; no user data in any label', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [from, to] = await world.pair(alice, bob, '50.00');
    expectStatus(await transfer(world.server, alice.token, from.serial, to.serial, '5.00'), 201);
    expectStatus(await world.server.request('GET', `/api/v1/coins/${from.serial}`, { token: alice.token }), 200);

    const scraped = await scrape({}, world.admin);
    expectStatus(scraped, 200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = scraped.text;
    expect(text).toMatch(
      /finapi_http_request_duration_seconds_bucket\{le="[^"]+",route="\/api\/v1\/transfers",method="POST",status="201"\} [1-9]/,
    );
    expect(text).toContain('route="/api/v1/coins/:serial",method="GET",status="200"');
    expect(text).toMatch(/finapi_ledger_operations_total\{type="client_transaction_transfer",status="processed"\} 1\n/);
    expect(text).toMatch(/finapi_db_pool_connections\{state="total"\} [1-9]/);
    expect(text).toMatch(/finapi_holds_open \d+/);
    // Nothing waits for a group once the transfer is answered.
    expect(text).toMatch(/finapi_ledger_postings_waiting 0\n/);
    expect(text).toMatch(/finapi_http_requests_in_flight \d+/);
    expect(text).toContain('finapi_process_resident_memory_bytes');
    expect(text).toContain('finapi_event_loop_lag_p99_seconds');
    // Neither the serial nor a login is in any label (a sample's value, a float, may contain the serial's digits by chance).
    const labels = [...text.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]).join('\n');
    expect(labels).toContain('route="/api/v1/coins/:serial"');
    expect(labels).not.toContain(from.serial);
    expect(labels).not.toContain(alice.login);
  });

  it('counts failed logins and holds placed', async () => {
    const carol = await world.user();
    await world.server.request('POST', '/api/v1/authorization', { body: { login: carol.login, password: 'wrong-password-1' } });
    const [coin] = await world.pair(carol, await world.user(), '30.00');
    const requested = await world.server.request('POST', '/api/v1/bank-withdrawals/create-request', {
      token: carol.token,
      body: { coinSerial: coin.serial, amount: '5.00', bankDetails: { iban: 'DE89370400440532013000', accountHolder: 'Carol' } },
    });
    expectStatus(requested, 201);
    const text = (await scrape({ authorization: `Bearer ${METRICS_TOKEN}` })).text;
    expect(text).toMatch(/finapi_failed_password_checks_total [1-9]/);
    expect(text).toMatch(/finapi_holds_placed_total [1-9]/);
    expect(text).toMatch(/finapi_holds_open [1-9]/);
  });

  it('counts each hold once in finapi_users_held_total, an administrator’s too (issue 29)', async () => {
    const held = async () => {
      const text = (await scrape({ authorization: `Bearer ${METRICS_TOKEN}` })).text;
      return Number(/^finapi_users_held_total (\d+)$/m.exec(text)?.[1]);
    };
    const before = await held();
    expect(before).toBeGreaterThanOrEqual(0);
    const erin = await world.user({ role: 'administrator' });
    for (let i = 0; i < 4; i++) {
      await world.server.request('POST', '/api/v1/authorization', { body: { login: erin.login, password: `wrong-password-${i}` } });
    }
    await world.server.request('POST', '/api/v1/authorization', { body: { login: erin.login, password: erin.password } });
    expect(await held()).toBe(before + 1);
  });

  it("the guide's scrape (docs/operations.md, runbook metrics-scrape) reads the ledger counter with METRICS_TOKEN", async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [from, to] = await world.pair(alice, bob, '5.00');
    expectStatus(await transfer(world.server, alice.token, from.serial, to.serial, '1.00'), 201);
    const run = await runRunbook('metrics-scrape', { FINAPI_URL: world.server.url, METRICS_TOKEN });
    expect(run.stdout).toMatch(/^finapi_ledger_operations_total\{type="client_transaction_transfer",status="processed"\} [1-9]/m);
  });

  it('answers a scraper with METRICS_TOKEN; no token is a 401, a wrong one a 401, a customer a 403', async () => {
    expectStatus(await scrape({ authorization: `Bearer ${METRICS_TOKEN}` }), 200);
    expectError(await scrape(), 401);
    expectError(await scrape({ authorization: 'Bearer not-the-metrics-token' }), 401);
    const dave = await world.user();
    expectError(await scrape({}, dave.token), 403, 'exception.access.permission_missing');
  });

  it('answers no Server-Timing header unless SERVER_TIMING is on: its count of database calls would tell a foreign coin from a missing one', async () => {
    const erin = await world.user();
    const [theirs, mine] = await world.pair(await world.user(), erin, '1.00');
    const foreign = await world.server.request('GET', `/api/v1/coins/${theirs.serial}`, { token: erin.token });
    const missing = await world.server.request('GET', '/api/v1/coins/999999999999', { token: erin.token });
    expectError(foreign, 404, 'exception.coin.not_found');
    expectError(missing, 404, 'exception.coin.not_found');
    const own = await world.server.request('GET', `/api/v1/coins/${mine.serial}`, { token: erin.token });
    expectStatus(own, 200);
    for (const answer of [foreign, missing, own, await world.server.request('GET', '/api/v1/nowhere')]) {
      expect(answer.headers.get('x-request-id')).toEqual(expect.any(String));
      expect(answer.headers.get('server-timing')).toBeNull();
    }
  });
});

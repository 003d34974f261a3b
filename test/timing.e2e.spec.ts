import { adminToken, Actor, aUser } from './helpers/actors';
import { startServer, TestServer } from './helpers/server';
import { mannWhitneyZ, median } from './helpers/stats';

const SAMPLES = 400;

describe('no user enumeration by timing', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    // bcrypt at its lowest cost, so the database round trips weigh as much as they can; no address limit in the way.
    server = await startServer({ BCRYPT_COST: '4', LOGIN_FAILURES_PER_MINUTE: '1000000', LOG_LEVEL: 'warn' });
    admin = await adminToken(server);
  });
  afterAll(() => server.stop());

  /** Milliseconds from sending a login to its answer, which must have `status`. */
  const time = async (login: string, password: string, status: number) => {
    const start = process.hrtime.bigint();
    const response = await server.request('POST', '/api/v1/authorization', { body: { login, password } });
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    expect(response.status).toBe(status);
    return elapsed;
  };

  /** `SAMPLES` timings of each of two kinds of login, alternating which goes first so drifts in the machine's load fall on both alike. */
  const compare = async (a: () => Promise<number>, b: () => Promise<number>) => {
    const first: number[] = [];
    const second: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      if (i % 2) {
        first.push(await a());
        second.push(await b());
      } else {
        second.push(await b());
        first.push(await a());
      }
    }
    const z = mannWhitneyZ(first, second);
    return { z: Number(z.toFixed(2)), firstMedianMs: median(first), secondMedianMs: median(second) };
  };

  it(`takes the same time for an unknown login as for a wrong password: a rank test over ${SAMPLES} samples of each`, async () => {
    // Known users stay active: each is logged in (untimed) after two failures in a row, before a third would hold them.
    const users = await Promise.all(Array.from({ length: 6 }, () => aUser(server, admin)));
    const failures = new Map<string, number>();
    let next = 0;
    const wrongPassword = async () => {
      const user: Actor = users[next++ % users.length];
      const elapsed = await time(user.login, 'definitely-wrong', 401);
      failures.set(user.login, (failures.get(user.login) ?? 0) + 1);
      if (failures.get(user.login) === 2) {
        expect(
          (await server.request('POST', '/api/v1/authorization', { body: { login: user.login, password: user.password } })).status,
        ).toBe(200);
        failures.set(user.login, 0);
      }
      return elapsed;
    };
    let ghost = 0;
    const unknownLogin = () => time(`ghost-${ghost++}`, 'definitely-wrong', 401);
    for (let i = 0; i < 30; i++) await (i % 2 ? wrongPassword() : unknownLogin());
    const { z, firstMedianMs, secondMedianMs } = await compare(wrongPassword, unknownLogin);
    const summary = { z, knownMedianMs: firstMedianMs, unknownMedianMs: secondMedianMs };
    // Two-sided p > 0.001: no difference a rank test can see.
    expect({ ...summary, alike: Math.abs(z) < 3.29 }).toEqual({ ...summary, alike: true });
    // 860 logins in a row: a loaded machine needs more than the default minute for them.
  }, 300_000);

  it(`takes the same time for a held user's right password as for a wrong one (issue 29): a rank test over ${SAMPLES} samples of each`, async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => aUser(server, admin)));
    for (const user of users) for (let i = 0; i < 3; i++) await time(user.login, `wrong-${i}`, 401);
    let right = 0;
    let wrong = 0;
    const rightPassword = () => {
      const user = users[right++ % users.length];
      return time(user.login, user.password, 403);
    };
    const wrongPassword = () => time(users[wrong++ % users.length].login, 'definitely-wrong', 403);
    for (let i = 0; i < 30; i++) await (i % 2 ? rightPassword() : wrongPassword());
    const { z, firstMedianMs, secondMedianMs } = await compare(rightPassword, wrongPassword);
    const summary = { z, rightMedianMs: firstMedianMs, wrongMedianMs: secondMedianMs };
    expect({ ...summary, alike: Math.abs(z) < 3.29 }).toEqual({ ...summary, alike: true });
  }, 300_000);
});

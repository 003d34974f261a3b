import { adminToken, aUser } from './helpers/actors';
import { startServer, TestServer } from './helpers/server';
import { mannWhitneyZ, median } from './helpers/stats';

const SAMPLES = 400;

describe('no user enumeration by timing', () => {
  let server: TestServer;
  beforeAll(async () => {
    // bcrypt at its lowest cost, so the database round trips weigh as much as they can; no address limit in the way.
    server = await startServer({ BCRYPT_COST: '4', LOGIN_FAILURES_PER_MINUTE: '1000000', LOG_LEVEL: 'warn' });
  });
  afterAll(() => server.stop());

  it(`takes the same time for an unknown login as for a wrong password: a rank test over ${SAMPLES} samples of each`, async () => {
    const admin = await adminToken(server);
    // Known users are held after their third failure; held or not, a wrong password takes the same path.
    const users = await Promise.all(Array.from({ length: 6 }, () => aUser(server, admin)));
    const time = async (login: string) => {
      const start = process.hrtime.bigint();
      const response = await server.request('POST', '/api/v1/authorization', { body: { login, password: 'definitely-wrong' } });
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      expect(response.status).toBe(401);
      return elapsed;
    };
    for (let i = 0; i < 30; i++) await time(i % 2 ? users[i % users.length].login : `warm-up-${i}`);
    const known: number[] = [];
    const unknown: number[] = [];
    // Alternate which goes first, so drifts in the machine's load fall on both alike.
    for (let i = 0; i < SAMPLES; i++) {
      if (i % 2) {
        known.push(await time(users[i % users.length].login));
        unknown.push(await time(`ghost-${i}`));
      } else {
        unknown.push(await time(`ghost-${i}`));
        known.push(await time(users[i % users.length].login));
      }
    }
    const z = mannWhitneyZ(known, unknown);
    const summary = { z: Number(z.toFixed(2)), knownMedianMs: median(known), unknownMedianMs: median(unknown) };
    // Two-sided p > 0.001: no difference a rank test can see.
    expect({ ...summary, alike: Math.abs(z) < 3.29 }).toEqual({ ...summary, alike: true });
    // 860 logins in a row: a loaded machine needs more than the default minute for them.
  }, 300_000);
});

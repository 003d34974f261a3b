import { adminToken, aUser } from './helpers/actors';
import { startServer, TestServer } from './helpers/server';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

describe('no user enumeration by timing', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ BCRYPT_COST: '10' });
  });
  afterAll(() => server.stop());

  it('takes about as long for an unknown login as for a wrong password', async () => {
    const admin = await adminToken(server);
    const users = await Promise.all(Array.from({ length: 2 }, () => aUser(server, admin)));
    const time = async (login: string) => {
      const start = process.hrtime.bigint();
      const response = await server.request('POST', '/api/v1/authorization', { body: { login, password: 'definitely-wrong' } });
      expect(response.status).toBe(401);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    // Two failures per user stay below the hold threshold; alternate to spread noise evenly.
    for (let i = 0; i < 4; i++) {
      known.push(await time(users[i % 2].login));
      unknown.push(await time(`ghost-${i}`));
    }
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.6);
  });
});

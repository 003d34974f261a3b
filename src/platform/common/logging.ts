import type { LoggerService } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pino, { DestinationStream, Level, Logger } from 'pino';
import { GLOBAL_PREFIX } from './http';

/** Secrets that must never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.temporaryPassword',
  '*.token',
];

/** The service's one logger: JSON lines (pino) on stdout, or on `stream`. */
export function createLogger(level: string, stream?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid, service: 'finapi' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    stream,
  );
}

const API_PATH = `/${GLOBAL_PREFIX}/`;
/** A file link's last segment may be a token (bearer.strategy.ts): it never reaches a log line. */
const FILE_LINK = new RegExp(`^(/${GLOBAL_PREFIX}/media-files/[^/]+/)[^/]+$`);

/** The path a request line logs: without its query string (it may carry anything), a file link's token redacted. */
export function loggedPath(url: string): string {
  return url.split('?')[0].replace(FILE_LINK, '$1[redacted]');
}

/**
 * One line per API request, when it has been answered: `request completed` at info, or `request errored`
 * at error for a 5xx. Only the path is logged (a query string may carry anything), never a header.
 * It is a Fastify hook rather than a middleware: below the log level it costs one comparison.
 */
export function logRequests(fastify: FastifyInstance, logger: Logger): void {
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const failed = reply.statusCode >= 500;
    // A 503 says "unavailable" (shutting down, the database gone), not "broken": a warning; a fault behind it is
    // logged apart (ErrorFilter).
    const level: Level = reply.statusCode === 503 ? 'warn' : failed ? 'error' : 'info';
    if (!logger.isLevelEnabled(level) || !request.url.startsWith(API_PATH)) return done();
    logger[level](
      {
        req: { id: request.id, method: request.method, url: loggedPath(request.url), remoteAddress: request.ip },
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
      },
      failed ? 'request errored' : 'request completed',
    );
    done();
  });
}

/**
 * Nest's logger (its own messages and every `new Logger(context)` of the services) on the same pino logger.
 * A line written while a request runs carries that request's id. Nest passes the context last, after the
 * message and any stack; a first argument that is an object is merged into the line (`logger.error({ err }, msg)`).
 */
/** The contexts of Nest's start-up lines (modules initialized, routes mapped, application started). */
const NEST_START_UP = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

export class NestPinoLogger implements LoggerService {
  constructor(
    private readonly logger: Logger,
    /** The id of the request running now, if any. */
    private readonly currentRequestId: () => string | undefined,
  ) {}

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  log(message: unknown, ...params: unknown[]): void {
    // Nest's own account of building the app (a line per module and per route: ~350 at a start) is debug: at info a
    // start says what the operator needs (migrations, where it listens, a generated password), not how Nest got there.
    const context = params[params.length - 1];
    this.write(typeof context === 'string' && NEST_START_UP.has(context) ? 'debug' : 'info', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const rest = [...params];
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    // Nest's report of an error that stops the app starting, stack and all: the error reaches whoever started it
    // (main.ts logs it once, one sentence for a known cause).
    if (context === 'ExceptionHandler') return;
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    const requestId = this.currentRequestId();
    if (requestId) fields.requestId = requestId;
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...(message as Record<string, unknown>) }, typeof rest[0] === 'string' ? rest[0] : undefined);
    } else {
      // Nest's error(message, stack): the stack travels as the error's.
      if (level === 'error' && typeof rest[0] === 'string') fields.err = { stack: rest[0] };
      this.logger[level](fields, String(message));
    }
  }
}

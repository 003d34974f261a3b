import { idempotentReplays } from '../common/metrics';
import { createHmac } from 'node:crypto';
import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { from, isObservable, lastValueFrom, Observable } from 'rxjs';
import { ApiRequest, principalMeta } from '../access/principal';
import { ApiError } from '../common/api-error';
import { auditChainKey } from '../config/audit-chain-key';
import { APP_CONFIG, AppConfig } from '../config/config';
import { RawJson, serializeAnswer, serializeJson } from '../common/json-decimal';
import { TransactionMeta, UnitOfWork } from '../database/unit-of-work';
import { AnswerAlone, GroupedAnswer } from '../database/grouped-answer';
import type { PromiseInterceptor } from '../common/promise-interceptors';
import { IdempotencyRepository, StoredAnswer } from './idempotency.repository';

const KEY = /^[\x20-\x7e]{1,255}$/;

/** What Fastify says of the JSON it serializes. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Route metadata: the route's one write is a grouped ledger posting (`idempotent: { groupCommit: true }` (@Route)). */
export const GROUP_COMMIT_KEY = 'finapi:group-commit';

/** JSON with its object keys sorted, so the same body written in another key order has the same fingerprint. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What a request asks: its route, its path and its body, as an HMAC under a key of the service's. Keyed, because a body
 * may carry a low-entropy secret (a card number paid to), which a plain hash kept in the table would give away to a
 * search of every candidate.
 */
function fingerprint(key: Buffer, request: ApiRequest): string {
  return createHmac('sha256', key)
    .update(`${request.method} ${request.routeOptions.url ?? request.url}\n${request.url.split('?')[0] ?? ''}\n${canonical(request.body)}`)
    .digest('hex');
}

/**
 * An answer as the JSON text it is sent as, with Fastify's own content type for JSON: Fastify sends a string as it is.
 * Given an object instead, Nest first asks whether it is a plain object wrapping a stream (`isPlainObject`, which
 * compares the source texts of two constructors: about 8 µs an answer in a profile under load), then Fastify runs its
 * serializer, serializeJson, all the same. Anything but an object or a RawJson goes on as it is.
 */
function jsonText(reply: FastifyReply, answer: unknown): unknown {
  let text: string;
  if (answer instanceof RawJson) text = answer.text;
  else if (answer !== null && typeof answer === 'object' && (Array.isArray(answer) || Object.getPrototypeOf(answer) === Object.prototype)) {
    text = serializeJson(answer);
  } else return answer;
  void reply.header('content-type', JSON_CONTENT_TYPE);
  return text;
}

/**
 * Runs a money-moving route as one unit of work, once per (user, Idempotency-Key). The handler
 * runs inside the transaction (services join it through AsyncLocalStorage), and the answer's
 * status and body are stored in that same transaction; a repeat replays them with
 * `Idempotent-Replayed: true`, another body under the same key is a 422, and a repeat while the
 * first runs is a 409. A request that fails stores nothing, so it can be retried with its key. A
 * one-time secret of the answer (OneTimeSecret: a voucher code) is stored as null, so a replay shows it as null.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor, PromiseInterceptor {
  /** The fingerprints' key: derived from the service's secret with a label of its own. */
  private readonly fingerprintKey: Buffer;
  /** Keyed group-commit requests this instance runs, by user and key: a retry waits for its first attempt, then replays. */
  private readonly running = new Map<string, Promise<void>>();
  private readonly groupCommitByHandler = new WeakMap<object, boolean>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly keys: IdempotencyRepository,
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.fingerprintKey = createHmac('sha256', auditChainKey(config)).update('finapi idempotency fingerprint v1', 'utf8').digest();
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return from(this.interceptAsync(context, () => lastValueFrom(next.handle())));
  }

  /** The interceptor as promises (see PromiseInterceptor): `next()` runs the pipes and the handler. */
  async interceptAsync(context: ExecutionContext, next: () => Promise<unknown>): Promise<unknown> {
    const request = context.getArgByIndex<ApiRequest>(0);
    const reply = context.getArgByIndex<FastifyReply>(1);
    const header = request.headers['idempotency-key'];
    if (Array.isArray(header)) throw ApiError.invalid('Idempotency-Key', 'must be sent once');
    if (header !== undefined && !KEY.test(header)) throw ApiError.invalid('Idempotency-Key', 'must be 1 to 255 printable characters');
    const principal = request.principal;
    if (!principal) throw new Error('@Idempotent() needs an authenticated route');
    const userId = principal.userId;
    const key = header;
    const hash = key === undefined ? '' : fingerprint(this.fingerprintKey, request);
    // A handler's Observable answers its last value, as Nest's chain did.
    const handle = async (): Promise<unknown> => {
      const result = await next();
      return isObservable(result) ? lastValueFrom(result) : result;
    };

    const work = async (): Promise<unknown> => {
      if (key !== undefined) {
        // Sent together (the connection pipelines): the lock, then the look for a stored answer, which runs once it is held.
        const [locked, stored] = await Promise.all([this.keys.tryLock(userId, key), this.keys.find(userId, key)]);
        if (!locked) throw new ApiError('exception.idempotency.in_flight', 'A request with this Idempotency-Key is still running');
        if (stored) return this.replay(stored, hash, reply);
      }
      const body = await handle();
      if (key === undefined) return body;
      const operationId = this.uow.current()?.operationIds[0] ?? null;
      // Stringified once, sent as stored; the answer's row travels with the COMMIT (nothing reads its result).
      const { sent, stored } = serializeAnswer(body);
      this.uow.sendWithCommit(() => this.keys.store(userId, key, hash, reply.statusCode, stored, operationId));
      return sent;
    };
    // `idempotent`: the ledger posts only for such a request (or for the service's own jobs), see LedgerService.
    const meta = principalMeta(principal, String(request.id));
    meta.requestIdentifier = key;
    meta.idempotent = true;
    let answer: unknown;
    if (!this.groupCommit(context.getHandler())) answer = await this.uow.run(work, { meta });
    // Nothing to store without a key: the route's posting is then its own unit of work (see IdempotentOptions).
    else if (key === undefined) answer = await this.uow.withMeta(meta, work);
    else answer = await this.grouped(userId, key, hash, meta, reply, handle, () => this.uow.run(work, { meta }));
    return jsonText(reply, answer);
  }

  /** Whether a route's handler posts through a group (its metadata, read once per handler). */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- what Nest answers for a handler
  private groupCommit(handler: Function): boolean {
    let grouped = this.groupCommitByHandler.get(handler);
    if (grouped === undefined)
      this.groupCommitByHandler.set(handler, (grouped = this.reflector.get<boolean>(GROUP_COMMIT_KEY, handler) === true));
    return grouped;
  }

  /** A stored answer sent again, if the request is the same. */
  private replay(stored: StoredAnswer, hash: string, reply: FastifyReply): RawJson {
    if (stored.request_hash !== hash) {
      throw new ApiError('exception.idempotency.key_reused', 'This Idempotency-Key was used with a different request');
    }
    idempotentReplays.inc();
    void reply.status(stored.response_status).header('Idempotent-Replayed', 'true');
    return new RawJson(stored.response_body);
  }

  /**
   * A keyed request on a group-commit route: its posting joins a group, which stores its answer in the group's
   * transaction (GroupedAnswer); the answer is sent once that committed. A request the group could not take, or that
   * opens a transaction of its own, runs again as one unit of work (`alone`: lock, replay or run, store). A retry of a
   * request this instance is still running waits for it and replays its answer (across instances: 409, as `alone`).
   */
  private async grouped(
    userId: string,
    key: string,
    hash: string,
    meta: TransactionMeta,
    reply: FastifyReply,
    handle: () => Promise<unknown>,
    alone: () => Promise<unknown>,
  ): Promise<unknown> {
    const slot = `${userId}\n${key}`;
    let retry = false;
    for (let first = this.running.get(slot); first; first = this.running.get(slot)) {
      retry = true;
      await first;
    }
    let done!: () => void;
    this.running.set(slot, new Promise<void>((resolve) => (done = resolve)));
    try {
      // A retry of what this instance just ran replays it at once. Otherwise no read of the key first: the group checks
      // it with the coins (a key already answered sends the request `alone`, which replays it), so a new key, the usual
      // case, costs no statement of its own.
      if (retry) {
        const stored = await this.keys.find(userId, key);
        if (stored) return this.replay(stored, hash, reply);
      }
      const answer = new GroupedAnswer(userId, key, hash);
      try {
        const body = await this.uow.withMeta(Object.assign({}, meta, { answer }), handle);
        if (!answer.joined) throw new AnswerAlone('it posted nothing through a group');
        const { sent, stored } = serializeAnswer(body);
        answer.give({ status: reply.statusCode, body: stored });
        await answer.committed;
        return sent;
      } catch (error) {
        answer.fail(error);
        if (!(error instanceof AnswerAlone)) {
          // Failed before its group (a 4xx of its reads): a key already answered still answers what it answered.
          const stored = await this.keys.find(userId, key);
          if (stored) return this.replay(stored, hash, reply);
          throw error;
        }
      }
      return await alone();
    } finally {
      this.running.delete(slot);
      done();
    }
  }
}

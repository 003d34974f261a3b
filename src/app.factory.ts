import { randomUUID } from 'node:crypto';
import type { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, OpenAPIObject } from '@nestjs/swagger';
import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import { API_VERSION } from './platform/actuator/actuator.service';
import { AppModule } from './app.module';
import { ApiError } from './platform/common/api-error';
import { sendError } from './platform/common/error-filter';
import { toApiError } from './platform/common/error-mapping';
import { GLOBAL_PREFIX } from './platform/common/http';
import { finishDocument } from './platform/common/openapi';
import { httpRequestDuration, httpRequestsInFlight } from './platform/common/metrics';
import { serializeJson } from './platform/common/json-decimal';
import { parseJsonBody } from './platform/common/json-body';
import { createLogger, logRequests, NestPinoLogger } from './platform/common/logging';
import { createValidationPipe } from './platform/common/validation';
import type { AppConfig, TrustProxy } from './platform/config/config';
import { registerPages, securityHeaders } from './platform/pages/pages';
import { prepareSchema } from './platform/database/migrations';
import { currentRequestId, RequestTiming, serverTimingHeader, withRequestTiming } from './platform/database/request-timing';
import { runImmediatePipes } from './platform/common/immediate-pipes';
import { runPromiseGuards } from './platform/common/promise-guards';
import { runPromiseInterceptors } from './platform/common/promise-interceptors';
import { routeOperationId } from './platform/http/route.decorator';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** A client's X-Request-Id is kept only in this shape (it reaches logs and answers); else the service makes its own. */
export const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * TRUST_PROXY as Fastify takes it: the proxies' addresses as they are, a number of hops as a trust
 * function (Fastify 5.12 trusts no one for a bare number), `false` as false. Never `true`: trusting
 * every X-Forwarded-For entry would let any client choose its address.
 */
export function trustProxyOption(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust;
}

export function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('finapi')
    .setDescription(
      'Financial API service: wallets (coins) in several currencies, transfers, top-ups and more. ' +
        'Log in with `POST /api/v1/authorization`, then press Authorize and paste `authorizationToken.token` ' +
        '(sent as `Authorization: Bearer <token>`; the scheme word `TOKEN` is accepted too). ' +
        'In this page: open `POST /api/v1/authorization`, press Try it out, enter `{"login": …, "password": …}` and Execute; ' +
        'copy `authorizationToken.token` from the answer; press Authorize, paste the token alone (without the word `Bearer`) ' +
        'into `bearer (http, Bearer)`, press Authorize and Close; guarded operations (with a padlock) then send it. ' +
        'A token expires at its `expiresAt`; `DELETE /api/v1/authorization` revokes it. ' +
        'People can also log in at `/login`; administrators release users On Hold at `/admin`. ' +
        'Every error answers `{status: "error", code, message, errors[], requestId}`.',
    )
    .setVersion(API_VERSION)
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description:
          "Paste `authorizationToken.token` (or a member's `token.token`) from POST /api/v1/authorization, without the word Bearer",
      },
      'bearer',
    )
    .build();
  return finishDocument(SwaggerModule.createDocument(app, config, { operationIdFactory: routeOperationId }));
}

/**
 * Builds the whole application; main.ts, the tests' server and the benchmark all start it this way (a test may add
 * `extraModules`, see test/fixtures).
 */
export async function createApp(
  config: AppConfig,
  databaseUrl: string,
  logStream?: DestinationStream,
  extraModules: Type[] = [],
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // A request that arrives on an open connection while the app closes is answered like any other (its answer says
    // `Connection: close`, see the onSend hook), not with Fastify's own 503 body outside the error contract.
    return503OnClosing: false,
    // A long path parameter reaches its route (a 400 or 404 in the error contract) instead of Fastify's own 414 body;
    // Node's header limit (16 kB) still bounds the URL. A path with a trailing slash reaches the route without it, as
    // the family's web client asks for a gate transaction's `payer-fields/`.
    routerOptions: { maxParamLength: 4096, ignoreTrailingSlash: true },
    // A path Fastify cannot decode (a malformed %-escape) is answered by the one error filter like any other bad request,
    // instead of Fastify's own body without a request id.
    // Such an answer skips the hooks, so it is given their headers here.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      securityHeaders(request, reply);
      void reply.header('X-Request-Id', request.id);
      const answer =
        error.code === 'FST_ERR_BAD_URL' ? new ApiError('exception.request', 'The path has a malformed %-escape') : toApiError(error).error;
      sendError(reply, answer, String(request.id));
    },
    // multipart/form-data for the file uploads (the bank catalog import); every other route refuses it below.
    multipart: { limits: { fileSize: BODY_LIMIT_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 100 } },
    trustProxy: trustProxyOption(config.trustProxy),
    genReqId: (req: IncomingMessage) => {
      const header = req.headers['x-request-id'];
      const id = typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
      (req as IncomingMessage & { id?: string }).id = id;
      return id;
    },
  });
  const fastify = adapter.getInstance();
  // JSON only: any other body type is a 415, not a string handed to the validators.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (request, body, done) => {
    // Kept for the routes that check a signature over the exact body (gate provider callbacks).
    (request as typeof request & { rawBody?: string }).rawBody = body as string;
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // multipart/form-data reaches only the routes configured for it (MULTIPART_ROUTE): anywhere else it is a 415 like any non-JSON body.
  // Fastify's hooks here take a callback rather than being async: a request then allocates no promise per hook.
  fastify.addHook('preValidation', (request, _reply, done) => {
    const multipart = (request as typeof request & { isMultipart?: () => boolean }).isMultipart?.();
    if (multipart && (request.routeOptions.config as { multipart?: boolean }).multipart !== true) {
      return done(new ApiError('exception.request.unsupported_media_type', 'The request body must be application/json'));
    }
    done();
  });
  // Amounts leave as exact JSON numbers (common/json-decimal.ts).
  fastify.setReplySerializer(serializeJson);
  // Each route's handler (Nest's whole pipeline: guard, interceptors, handler) runs with a timing its database calls add to
  // (which also carries the request's id and, once the guard knows it, its principal: what its transactions say by default).
  fastify.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function timed(this: unknown, request, reply) {
      const timing: RequestTiming = { requestId: String(request.id), dbMs: 0, dbCalls: 0 };
      (request as typeof request & { timing?: RequestTiming }).timing = timing;
      return withRequestTiming(timing, () => handler.call(this as never, request, reply));
    };
  });
  // Once the app is closing, each answer still being given closes its connection: a client's idle keep-alive
  // connection would otherwise hold the server's close (and the shutdown) until its timeout.
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (closing) void reply.header('Connection', 'close');
    void reply.header('X-Request-Id', request.id);
    // Database time and the whole request, for a browser's network panel and the benchmark; only when asked
    // (SERVER_TIMING), since the count of calls would tell a caller which path a request took (e.g. a coin that exists).
    if (config.serverTiming) {
      void reply.header(
        'Server-Timing',
        serverTimingHeader((request as typeof request & { timing?: RequestTiming }).timing, reply.elapsedTime),
      );
    }
    done(null, payload);
  });
  // Metrics: every request timed, labelled by its route template (never the raw path; unmatched: "unmatched").
  fastify.addHook('onRequest', (_request, _reply, done) => {
    httpRequestsInFlight.inc();
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    httpRequestsInFlight.dec();
    httpRequestDuration.observe(
      { route: request.routeOptions.url ?? 'unmatched', method: request.method, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
  const logger = createLogger(config.logLevel, logStream);
  // Straight to PostgreSQL (DATABASE_LISTEN_URL when set): the migration lock is a session's, which a pooler in
  // transaction mode would hand to other clients, and the migrations need no pooling.
  await prepareSchema(config.databaseListenUrl ?? databaseUrl, config.migrationsRun, logger);
  logRequests(fastify, logger);
  // The login page, the administrator's console and the security headers (CSP, no framing, nosniff).
  registerPages(fastify);

  // The idempotency interceptor of the money routes runs as promises, not as a chain of Observables; the guards with
  // one promise each; a route's params are settled without a promise when its pipes can decide at once.
  runPromiseInterceptors();
  runPromiseGuards();
  runImmediatePipes();
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, databaseUrl, extraModules), adapter, {
    // Nest logs through pino from its first line (not in colours until a logger is attached).
    logger: new NestPinoLogger(logger, currentRequestId),
    abortOnError: false,
    // Fastify's own JSON parser only: no form or text bodies reach a handler (they are a 415).
    bodyParser: false,
  });
  // A browser app on another origin may call the API only from CORS_ORIGINS; no cookies are involved, so no credentials.
  if (config.corsOrigins.length) {
    app.enableCors({
      origin: config.corsOrigins,
      credentials: false,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
      exposedHeaders: ['X-Request-Id', 'Idempotent-Replayed', 'Retry-After'],
      maxAge: 600,
    });
  }
  app.setGlobalPrefix(GLOBAL_PREFIX);
  app.useGlobalPipes(createValidationPipe());
  // No enableShutdownHooks(): its handler closes the app in Nest's order; the caller installs shutDownOnSignals instead.

  // Built on its first request, not at every start: it costs about 1.5 s of CPU, which a start mostly never needs.
  SwaggerModule.setup('swagger/ui', app, () => buildOpenApiDocument(app), {
    useGlobalPrefix: false,
    jsonDocumentUrl: 'swagger/openapi.json',
    yamlDocumentUrl: 'swagger/openapi.yaml',
    customSiteTitle: 'finapi API',
    swaggerOptions: { persistAuthorization: false, displayRequestDuration: true },
  });
  return app;
}

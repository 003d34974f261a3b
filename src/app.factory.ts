import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, OpenAPIObject } from '@nestjs/swagger';
import type { IncomingMessage } from 'node:http';
import { Logger } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { API_VERSION } from './actuator/actuator.service';
import { AppModule } from './app.module';
import { GLOBAL_PREFIX, UNPREFIXED_PATHS } from './common/http';
import { createValidationPipe } from './common/validation';
import type { AppConfig } from './config/config';

export const BODY_LIMIT_BYTES = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('finapi')
    .setDescription(
      'Financial API service: wallets (coins) in several currencies, transfers, top-ups and more. ' +
        'Log in with `POST /api/v1/authorization`, then press Authorize and paste `authorizationToken.token` ' +
        '(sent as `Authorization: Bearer <token>`; the scheme word `TOKEN` is accepted too). ' +
        'Every error answers `{status: "error", code, message, errors[], requestId}`.',
    )
    .setVersion(API_VERSION)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The token from POST /api/v1/authorization' }, 'bearer')
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Builds the whole application; main.ts, the tests' server and the benchmark all start it this way. */
export async function createApp(config: AppConfig, databaseUrl: string, logStream?: DestinationStream): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: process.env.TRUST_PROXY === 'true',
    genReqId: (req: IncomingMessage) => {
      const header = req.headers['x-request-id'];
      const id = typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
      (req as IncomingMessage & { id?: string }).id = id;
      return id;
    },
  });
  const fastify = adapter.getInstance();
  // JSON only: any other body type is a 415, not a string handed to the validators.
  fastify.removeContentTypeParser(['text/plain']);
  fastify.addHook('onSend', async (request, reply) => {
    void reply.header('X-Request-Id', request.id);
  });

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, databaseUrl, logStream), adapter, {
    bufferLogs: true,
    abortOnError: false,
    // Fastify's own JSON parser only: no form or text bodies reach a handler (they are a 415).
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  app.setGlobalPrefix(GLOBAL_PREFIX, { exclude: UNPREFIXED_PATHS });
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();

  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('swagger/ui', app, document, {
    useGlobalPrefix: false,
    jsonDocumentUrl: 'swagger/openapi.json',
    yamlDocumentUrl: 'swagger/openapi.yaml',
    customSiteTitle: 'finapi API',
    swaggerOptions: { persistAuthorization: false, displayRequestDuration: true },
  });
  return app;
}

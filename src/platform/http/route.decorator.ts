import { applyDecorators, Controller, Delete, Get, HttpCode, HttpStatus, Patch, Post, Put, SetMetadata, Type } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ACCESS_KEY, AccessRule, StaticTokenName } from '../access/access.decorators';
import type { Permission } from '../access/permissions';
import { IdempotentOptions, IdempotentRoute } from '../idempotency/idempotent.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ERRORS, ErrorCode } from '../common/errors';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call a route. */
export type RouteAccess =
  /** Every listed permission (none: any logged-in member). */
  | readonly Permission[]
  /** Everyone, logged in or not. */
  | 'public'
  /** Any member, and a token issued for a temporary password too (its only route). */
  | 'password-change'
  /** The permissions, or `Authorization: Bearer <the configured secret>` (a scraper has no user). */
  | { permissions: readonly Permission[]; orToken: StaticTokenName };

export interface RouteSpec {
  /**
   * The operation's id in the OpenAPI document (unique, stable: clients generate code from it). Left out: the handler's
   * name, which is how routes are written (`createGateProvider(...)`): one name for the route in code and in the document.
   */
  id?: string;
  summary: string;
  access: RouteAccess;
  /** A money-moving route: one unit of work, retried with an `Idempotency-Key` once (see Idempotent). */
  idempotent?: true | IdempotentOptions;
  /** The success status; by default 201 for POST, 200 otherwise. */
  status?: number;
  /**
   * The success answer's type; `[T]` a list of T. Left out: the handler's declared return type (`Promise<T>`), as the Swagger
   * CLI plugin reads it — state it only where the handler returns something else (a stream, a union).
   */
  answer?: Type | readonly [Type];
  /**
   * The errors the route answers beyond every route's (400 invalid input, 401, 403, 503): codes of the error catalogue
   * (src/platform/common/errors.ts, which knows each one's status), or `[code, when]` to say when it happens.
   */
  errors?: readonly (ErrorCode | readonly [ErrorCode, string])[];
  /**
   * Other paths of the same route — the family's aliases — each with its own operation id:
   * `{ ':profileId/commission-rule/:ruleId/condition': 'createCommissionCondition' }`. One handler answers them all.
   */
  aliases?: Record<string, string>;
}

/** What the Swagger CLI plugin records of a handler's answer, read from its return type. */
interface GuessedAnswer {
  type?: unknown;
  isArray?: boolean;
}

/** @nestjs/swagger's metadata key of a handler's responses (its constants are not exported). */
const API_RESPONSE = 'swagger/apiResponse';

const METHODS = { GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete } as const;

/** Controller class → handler → the operation ids of its paths, in order (read by `routeOperationId`). */
const OPERATION_IDS = new Map<string, Map<string, string[]>>();

/**
 * The operation id of a handler's path, for SwaggerModule.createDocument's `operationIdFactory`: a route declared with
 * `@Route` answers its `id` (an alias path, `name[index]`, its own); any other keeps Nest's `Controller_method`.
 */
export function routeOperationId(controllerKey: string, methodKey: string): string {
  const [, name, index] = /^(.*?)(?:\[(\d+)\])?$/.exec(methodKey)!;
  return OPERATION_IDS.get(controllerKey)?.get(name)?.[Number(index ?? 0)] ?? `${controllerKey}_${methodKey}`;
}

function answered(answer: RouteSpec['answer']): { type?: Type; isArray?: boolean } {
  if (!answer) return {};
  return Array.isArray(answer) ? { type: (answer as readonly [Type])[0], isArray: true } : { type: answer as Type };
}

function accessRule(access: RouteAccess): AccessRule {
  if (access === 'public') return { public: true };
  if (access === 'password-change') return { public: false, permissions: [], allowPasswordChange: true };
  if ('orToken' in access) return { public: false, permissions: [...access.permissions], staticToken: access.orToken };
  return { public: false, permissions: [...access] };
}

/**
 * The one way to declare a route: its method and path(s), who may call it, whether it moves money, its summary, its
 * answer and the errors it may give, stated once. Emits the routing, the access rule (the permission guard, the
 * actuator's api-list), idempotency, and the OpenAPI operation with one response per status — the error ones
 * described from the error catalogue.
 *
 * ```ts
 * @Route('POST', 'view', { summary: "The merchant's points of sale", access: ['POINT_OF_SALE_MANAGER'], status: 200 })
 * viewPointsOfSale(@Body() body: dto.PointOfSaleViewDto, @Caller() caller: Principal): Promise<dto.PointOfSalePageDto> {
 * ```
 * (the operation id `viewPointsOfSale`, the answer `PointOfSalePageDto`).
 */
export function Route(method: RouteMethod, path: string, spec: RouteSpec): MethodDecorator {
  const paths = [path, ...Object.keys(spec.aliases ?? {})];
  const rule = accessRule(spec.access);
  const status = spec.status ?? (method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK);

  // Per status, what may be answered; joined into each response's description.
  const responses = new Map<number, string[]>();
  const add = (code: number, text: string) => responses.set(code, [...(responses.get(code) ?? []), text]);
  if (!rule.public) {
    add(401, 'No token, or an expired or revoked one');
    if (!rule.allowPasswordChange) {
      add(403, rule.permissions.length ? `Requires ${rule.permissions.join(', ')}` : 'A password change is required first');
    }
  }
  if (spec.idempotent) {
    add(409, 'A request with the same Idempotency-Key is still running');
    add(422, 'The Idempotency-Key was used with another body');
  }
  for (const error of spec.errors ?? []) {
    const [code, when] = typeof error === 'string' ? [error, ERRORS[error].message] : error;
    add(ERRORS[code].status, `${code}: ${when}`);
  }

  const decorators: (MethodDecorator | ClassDecorator)[] = [
    METHODS[method](paths.length === 1 ? path : paths),
    SetMetadata(ACCESS_KEY, rule),
    ApiOperation({ summary: spec.summary }),
    ApiResponse({ status, ...answered(spec.answer) }),
    ...[...responses].map(([code, texts]) => ApiResponse({ status: code, description: texts.join('; '), type: ErrorResponseDto })),
  ];
  if (status !== (method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK)) decorators.push(HttpCode(status));
  if (!rule.public) decorators.push(ApiBearerAuth('bearer'));
  if (spec.idempotent) decorators.push(IdempotentRoute(spec.idempotent === true ? {} : spec.idempotent));

  const apply = applyDecorators(...decorators);
  return (target, key, descriptor) => {
    const controller = target.constructor.name;
    const handlers = OPERATION_IDS.get(controller) ?? new Map<string, string[]>();
    if (handlers.has(String(key))) throw new Error(`${controller}.${String(key)} has two @Route decorators`);
    OPERATION_IDS.set(controller, handlers.set(String(key), [spec.id ?? String(key), ...Object.values(spec.aliases ?? {})]));
    // The Swagger CLI plugin guesses the success answer from the return type, with a status from `@Post`/`@HttpCode` that
    // it cannot see here (a 200 for every route): its type is the answer unless the spec names one, under the route's status.
    const guessed = (Reflect.getMetadata(API_RESPONSE, descriptor.value as object) as Record<string, GuessedAnswer> | undefined)?.['200'];
    apply(target, key, descriptor);
    const responses = Reflect.getMetadata(API_RESPONSE, descriptor.value as object) as Record<string, GuessedAnswer>;
    for (const code of Object.keys(responses)) if (/^2\d\d$/.test(code) && Number(code) !== status) delete responses[code];
    if (!spec.answer && guessed?.type) {
      responses[status] = { ...responses[status], type: guessed.type, isArray: guessed.isArray };
    }
    // The plugin also turns the handler's JSDoc into `ApiOperation({ description })`, applied after this decorator and
    // with an empty summary: the route's summary goes back once the class is declared (its decorators run synchronously).
    queueMicrotask(() => ApiOperation({ summary: spec.summary })(target, key, descriptor));
  };
}

/**
 * A controller: the path its routes share, and the OpenAPI tag that groups them (by default the path). `@Routes('gate/products',
 * 'gate-products')` is `@Controller('gate/products')` with `@ApiTags('gate-products')`.
 */
export function Routes(path: string, tag = path): ClassDecorator {
  return applyDecorators(Controller(path), ApiTags(tag));
}

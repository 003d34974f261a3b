import type { OpenAPIObject } from '@nestjs/swagger';
import { SERIAL_EXAMPLE, SERIAL_PATTERN } from './validators';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ERROR = { $ref: '#/components/schemas/ErrorResponseDto' };
const json = (description: string) => ({ description, content: { 'application/json': { schema: ERROR } } });

/** Tags in the document's order, with what each groups. */
export const TAGS: Record<string, string> = {
  authorization: 'Logging in and out, password changes, sessions',
  profiles: "Profiles: the caller's own, any user's for staff; identification and requests to reset it",
  users: 'Users, their memberships, holds and releases (staff)',
  currencies: 'Currencies and their fraction',
  issuers: 'Issuers of currencies',
  coins: 'Wallets: open, list, rename, (de)activate, choose the main one, close',
  transfers: 'Transfers between coins',
  'bank-top-ups': 'Money in from a bank: direct top-ups (staff) and requests accepted or declined by staff',
  'bank-withdrawals': 'Money out to a bank: direct payouts (staff) and requests held until accepted or declined',
  'bank-accounts': "An organization's bank accounts, for withdrawals",
  'bank-catalog': 'The catalog of banks, and its CSV import',
  'cash-desks': 'Cash desks: organizations whose cashiers take cash in and pay cash out',
  transactions: 'Operations and their legs; reversal',
  'exchange-rates': 'Exchange rates per ordered currency pair, with the moment each takes effect',
  exchange: 'Exchanges between two of the caller’s coins in different currencies; the exchange reserves',
  vouchers: 'Prepaid vouchers: bought from a coin, redeemed once by the bearer of the code',
  'smart-cards': 'Smart cards standing for a coin: issue, block, pay with them in POST /transfers',
  i18n: 'Error messages by code, per locale',
  actuator: 'The API list, health, info and the ledger check',
  webhooks: 'Signed webhooks: endpoints an organization registers, their deliveries, redelivery',
  statements: 'Coin statements: entries with running balances, as JSON or streamed CSV',
  dashboard: "The operator's dashboard: volumes per day and currency, open holds, failed logins, webhook failures",
  'contact-book': "The caller's contacts: by phone, e-mail or coin; the coin to pay one in a currency",
  organizations: 'Organizations: members read their own, staff any',
  'user-actions': 'The user action log (staff): every action, the objects it touched, reversal, the hash chain check',
  'gate-providers': 'Outside payment providers (staff): a built-in simulated provider, its settings and callback secret',
  'gate-products': 'What is sold through a gate: name, currency, amount range, the fields a payer fills in',
  'gate-transactions': 'Payments through a gate: held, sent to the provider after commit, settled or released; provider callbacks',
  'gate-commissions': "A contract's gate commissions: provider rules (endDate mandatory) and product rules",
  invoices: 'Invoices and invoice templates: issued into a coin, paid once by any customer, expiring',
  'merchant-products': "A merchant's catalogue: products (numeric ids), categories, a price per currency",
  'merchant-payments': 'Payments to a merchant with a coin, a smart card or a voucher, and what they bought',
  'points-of-sale': "A merchant's points of sale",
};

/** A decimal amount a request may send as a string (a JSON number is accepted too). */
const AMOUNT_PATTERN = '^-?[0-9]{1,20}(\\.[0-9]{1,18})?$';

/**
 * Two shapes the decorators write loosely: an amount input (`oneOf` string or number) gets the
 * amount pattern on its string; a `nullable` with no `type` beside it (OpenAPI 3.0.3 ignores it
 * there) moves onto the alternatives.
 */
function walkSchemas(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(walkSchemas);
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  const alternatives: Json[] | undefined = schema.oneOf ?? schema.anyOf;
  if (alternatives) {
    const types = alternatives.map((a) => a.type);
    if (types.includes('string') && types.includes('number')) {
      for (const a of alternatives) if (a.type === 'string' && !a.pattern) a.pattern = AMOUNT_PATTERN;
    }
    if (schema.nullable && !schema.type) {
      delete schema.nullable;
      for (const a of alternatives) if (a.type) a.nullable = true;
    }
  }
  Object.values(schema).forEach(walkSchemas);
}

/**
 * Makes the generated document say exactly what the service does, in the places the decorators
 * cannot: every answer carries `X-Request-Id`; a 429 carries `Retry-After`; the successes of an
 * idempotent route carry `Idempotent-Replayed`; any route that reads a JSON body can answer 400,
 * 413 and 415, and any route with parameters 400; public routes need no security; tokens are
 * opaque; the tags are declared; and the server is this one.
 */
export function finishDocument(document: OpenAPIObject): OpenAPIObject {
  const doc = document as unknown as Json;
  doc.openapi = '3.0.3';
  doc.servers = [{ url: '/', description: 'This service' }];
  const used = new Set<string>();
  doc.components.headers = {
    'X-Request-Id': {
      description: 'Correlates the answer with the service’s logs; a client’s own id is kept when it matches ^[A-Za-z0-9._-]{1,64}$',
      schema: { type: 'string' },
    },
    'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } },
    'Idempotent-Replayed': {
      description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key',
      schema: { type: 'string', enum: ['true'] },
    },
  };
  for (const scheme of Object.values<Json>(doc.components.securitySchemes ?? {})) scheme.bearerFormat = 'opaque';
  for (const item of Object.values<Json>(doc.paths)) {
    for (const operation of Object.values<Json>(item)) {
      for (const tag of operation.tags ?? []) used.add(tag);
      if (!operation.security) operation.security = [];
      const parameters: Json[] = operation.parameters ?? [];
      // Path parameters are validated by UuidParam and SerialParam (a malformed one is a 400): say so. A route whose
      // specification answers a malformed id as unknown (404, `x-malformed-is-not-found`) keeps a plain string; an id
      // that declares its own pattern (the numeric ids of merchant products) keeps it.
      for (const p of parameters.filter((x) => x.in === 'path' && !x['x-malformed-is-not-found'])) {
        if (/serial/i.test(p.name)) p.schema = { type: 'string', pattern: SERIAL_PATTERN.source, example: SERIAL_EXAMPLE };
        else if (/(^id$|Id$)/.test(p.name) && !p.schema?.pattern) p.schema = { type: 'string', format: 'uuid' };
      }
      const validated = parameters.some((p) => p.in === 'query' || p.in === 'header' || p.schema?.format || p.schema?.pattern);
      const idempotent = parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      // Whatever reads the database (a token, a login, health) is unavailable while the database is.
      if (operation.security.length || operation.operationId === 'login' || operation.operationId === 'health') {
        operation.responses['503'] ??= json('The database does not answer; retry shortly');
      }
      if (operation.requestBody) {
        operation.responses['400'] ??= json('Invalid input');
        const upload = Boolean(operation.requestBody.content?.['multipart/form-data']);
        operation.responses['413'] ??= json(upload ? 'The file is over its limit' : 'The body is over 1 MB');
        operation.responses['415'] ??= json(upload ? 'The body is not multipart/form-data' : 'The body is not application/json');
      } else if (validated) {
        operation.responses['400'] ??= json('Invalid input');
      }
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        response.headers = { ...(response.headers ?? {}), 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
        if (status === '429') response.headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
        if (idempotent && status.startsWith('2'))
          response.headers['Idempotent-Replayed'] = { $ref: '#/components/headers/Idempotent-Replayed' };
      }
    }
  }
  walkSchemas(doc.components.schemas);
  // A PATCH changes what it names and nothing else: a field it leaves out keeps its value, so it has no default.
  for (const item of Object.values<Json>(doc.paths)) {
    const ref: string | undefined = item.patch?.requestBody?.content?.['application/json']?.schema?.$ref;
    const schema = ref ? doc.components.schemas[ref.split('/').pop()!] : undefined;
    for (const property of Object.values<Json>(schema?.properties ?? {})) delete property.default;
  }
  doc.tags = [...new Set([...Object.keys(TAGS), ...used])]
    .filter((t) => used.has(t))
    .map((name) => ({ name, description: TAGS[name] ?? name }));
  return document;
}

/**
 * The shape of the served OpenAPI document that a refactoring of routes must keep (issue 47): each operation's method
 * and path, operation id, parameters (name, where, required), request body and the status codes it answers with their
 * schemas, and every component schema. test/fixtures/openapi-shape.json holds it; `UPDATE_OPENAPI_SHAPE=1 npx jest
 * test/openapi.e2e.spec.ts -t shape` rewrites it when the API changes on purpose (review the diff).
 */
import { createHash } from 'node:crypto';

type Json = Record<string, any>;

export interface OpenApiShape {
  operations: Record<string, Json>;
  schemas: Record<string, string>;
}

const sorted = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sorted)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, sorted((value as Json)[k])]),
        )
      : value;

export function openApiShape(doc: Json): OpenApiShape {
  const operations: Record<string, Json> = {};
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      const schemaOf = (content: Json | undefined) =>
        content ? Object.fromEntries(Object.entries<Json>(content).map(([type, c]) => [type, c.schema ?? null])) : null;
      operations[`${method.toUpperCase()} ${path}`] = sorted({
        operationId: operation.operationId,
        parameters: (operation.parameters ?? [])
          .map((p: Json) => ({ name: p.name, in: p.in, required: Boolean(p.required), schema: p.schema ?? null }))
          .sort((a: Json, b: Json) => `${a.in} ${a.name}`.localeCompare(`${b.in} ${b.name}`)),
        requestBody: operation.requestBody ? schemaOf(operation.requestBody.content) : null,
        responses: Object.fromEntries(Object.entries<Json>(operation.responses).map(([code, r]) => [code, schemaOf(r.content)])),
        security: operation.security ?? [],
      }) as Json;
    }
  }
  // A schema by the hash of its sorted JSON: which one changed is named, and regenerating the file shows how.
  const schemas = Object.fromEntries(
    Object.entries<Json>(doc.components?.schemas ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, schema]) => [
        name,
        createHash('sha256')
          .update(JSON.stringify(sorted(schema)))
          .digest('hex')
          .slice(0, 16),
      ]),
  );
  return { operations: sorted(operations) as Record<string, Json>, schemas };
}

/** The shape as a file: one line per operation and per schema, so a diff shows what changed. */
export function shapeFile(shape: OpenApiShape): string {
  const lines = (o: Json) => Object.entries(o).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  return `{\n "operations": {\n${lines(shape.operations).join(',\n')}\n },\n "schemas": {\n${lines(shape.schemas).join(',\n')}\n }\n}\n`;
}

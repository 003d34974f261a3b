import SwaggerParser from '@apidevtools/swagger-parser';
import { RulesetDefinition, Spectral } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApiShape, shapeFile } from './helpers/openapi-shape';
import { startServer, TestServer } from './helpers/server';

describe('OpenAPI document and Swagger UI', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('serves a valid OpenAPI 3 document with the bearer scheme', async () => {
    const response = await server.request('GET', '/swagger/openapi.json');
    expect(response.status).toBe(200);
    const doc = response.body;
    expect(doc.openapi).toMatch(/^3\./);
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents request and response schemas and error responses for every operation', async () => {
    const doc = (await server.request('GET', '/swagger/openapi.json')).body;
    let operations = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        operations++;
        const where = `${method.toUpperCase()} ${path}`;
        const codes = Object.keys(operation.responses);
        expect({ where, success: codes.some((c) => c.startsWith('2')) }).toEqual({ where, success: true });
        // A public route without input has nothing to refuse; every other one documents its 4xx in the error shape.
        const refusable = operation.security.length > 0 || operation.requestBody || (operation.parameters ?? []).length > 0;
        expect({ where, errors: codes.some((c) => c.startsWith('4')) }).toEqual({ where, errors: Boolean(refusable) });
        // A 500 is always a bug: the document promises none (issue 9).
        expect({ where, has500: codes.includes('500') }).toEqual({ where, has500: false });
        for (const code of codes.filter((c) => c.startsWith('4'))) {
          expect({ where, code, schema: operation.responses[code].content['application/json'].schema.$ref }).toEqual({
            where,
            code,
            schema: '#/components/schemas/ErrorResponseDto',
          });
        }
        if (operation.security.length) expect(codes).toContain('401');
        if (['post', 'patch', 'put'].includes(method) && operation.requestBody) {
          // JSON, except the file uploads (the bank catalog import), which are multipart/form-data.
          const content = operation.requestBody.content;
          expect((content['application/json'] ?? content['multipart/form-data']).schema).toBeDefined();
        }
      }
    }
    expect(operations).toBeGreaterThan(10);
    // DTO fields document themselves through the CLI plugin (JSDoc becomes the description).
    const createUser = doc.components.schemas.CreateUserDto;
    // Only what the server requires is required: without a password the user gets a temporary one, a name defaults.
    expect(createUser.required.sort()).toEqual(['login', 'role']);
    expect(createUser.properties.organizationId.description).toMatch(/Organization to join/);
  });

  it('describes every operation: Spectral’s spectral:oas ruleset finds no operation without a description, and no error', async () => {
    // The text as served: the helper's exact parse keeps decimal numbers (the amounts' examples) as text.
    const { text, body: doc } = await server.request('GET', '/swagger/openapi.json');
    // Every $ref stays inside the document, so the rulesets' resolver never reaches for a file or the network.
    expect(text.match(/"\$ref":\s*"(?!#\/)[^"]*"/g)).toBeNull();
    const spectral = new Spectral();
    // As `extends: spectral:oas` in a .spectral.yaml: its recommended rules (the package's declared type is looser than RulesetDefinition).
    spectral.setRuleset({ extends: [oas as RulesetDefinition] });
    const findings = (await spectral.run(text)).map((f) => ({ rule: f.code, severity: f.severity, at: f.path.join('.') }));
    // Severity 0 is an error; `operation-description` is a warning that Spectral's own exit code would let through.
    expect(findings.filter((f) => f.rule === 'operation-description' || f.severity === 0)).toEqual([]);
    // The description is the handler's JSDoc (controllerKeyOfComment), beside the summary @ApiOperation keeps.
    const createUser = doc.paths['/api/v1/users'].post;
    expect(createUser).toMatchObject({ summary: 'Create a user', description: 'Creates a user with one membership.' });
  }, 180_000); // Some 20 s of Spectral's example checks on an idle machine.

  it('passes Redocly’s recommended rules with no error', async () => {
    const { text } = await server.request('GET', '/swagger/openapi.json');
    const dir = mkdtempSync(join(tmpdir(), 'finapi-openapi-'));
    try {
      writeFileSync(join(dir, 'openapi.json'), text);
      // Run beside the suite, not with spawnSync: a blocked event loop kept an idle connection to the service past its
      // keep-alive timeout (72 s, on a loaded machine), and the next request went out on it ("other side closed").
      const stdout = await new Promise<string>((resolve, reject) => {
        let out = '';
        const child = spawn(
          join(__dirname, '..', 'node_modules', '.bin', 'redocly'),
          ['lint', join(dir, 'openapi.json'), '--format=json'],
          {
            // Lint offline: no usage report, no update check.
            env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
            stdio: ['ignore', 'pipe', 'ignore'],
          },
        );
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
        child.once('error', reject);
        child.once('close', () => resolve(out));
      });
      const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
      const errors = (report.problems as { severity: string; ruleId: string; message: string }[]).filter((p) => p.severity === 'error');
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000); // Seconds of Redocly on an idle machine, far more on a loaded one.

  it('was generated without a warning: no two DTO classes of one name (they would share one schema; Swagger will refuse it)', async () => {
    // Its warnings are logged as it is generated; a marker line written after them shows the log has caught up.
    expect((await server.request('GET', '/swagger/openapi.json')).status).toBe(200);
    await server.request('GET', '/api/v1/actuator/health', { headers: { 'x-request-id': 'openapi-warnings-marker' } });
    expect(await server.waitForLog('openapi-warnings-marker')).toBeDefined();
    expect(server.logs.filter((line) => line.includes('Duplicate DTO'))).toEqual([]);
  });

  it('keeps its shape: the operations, their ids, parameters, bodies, status codes and schemas of test/fixtures/openapi-shape.json', async () => {
    const shape = openApiShape((await server.request('GET', '/swagger/openapi.json')).body);
    const file = join(__dirname, 'fixtures', 'openapi-shape.json');
    if (process.env.UPDATE_OPENAPI_SHAPE === '1') writeFileSync(file, shapeFile(shape));
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    const changed = (a: Record<string, unknown>, b: Record<string, unknown>) =>
      [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).sort();
    // By name first (a readable failure), then whole.
    expect({ operations: changed(shape.operations, kept.operations), schemas: changed(shape.schemas, kept.schemas) }).toEqual({
      operations: [],
      schemas: [],
    });
    expect(shape).toEqual(kept);
  });

  it('serves Swagger UI at /swagger/ui/', async () => {
    const response = await server.request('GET', '/swagger/ui/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.text).toContain('swagger-ui');
  });
});

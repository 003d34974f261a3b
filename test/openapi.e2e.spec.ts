import SwaggerParser from '@apidevtools/swagger-parser';
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

  it('serves Swagger UI at /swagger/ui/', async () => {
    const response = await server.request('GET', '/swagger/ui/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.text).toContain('swagger-ui');
  });
});

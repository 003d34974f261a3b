import { adminToken } from './helpers/actors';
import { startServer, TestServer } from './helpers/server';

describe('the wire contract', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startServer();
    admin = await adminToken(server);
  });
  afterAll(() => server.stop());

  describe('error catalogue and i18n export', () => {
    it('answers every error code with its English message, publicly; other locales fall back to English', async () => {
      const en = await server.request('GET', '/api/v1/i18n/export/en.json');
      expect(en.status).toBe(200);
      expect(en.body['exception.coin.insufficient_funds']).toBe('The coin has insufficient available funds');
      expect(Object.keys(en.body).length).toBeGreaterThan(40);
      expect(Object.keys(en.body).every((code) => /^exception(\.[a-z_]+)+$/.test(code))).toBe(true);
      const fr = await server.request('GET', '/api/v1/i18n/export/fr.json');
      expect(fr.status).toBe(200);
      expect(fr.body).toEqual(en.body);
      const bad = await server.request('GET', '/api/v1/i18n/export/en.xml');
      expect(bad.status).toBe(404);
      expect(bad.body.code).toBe('exception.not_found');
    });

    it('answers each error with the status its code has in the export', async () => {
      const en = (await server.request('GET', '/api/v1/i18n/export/en.json')).body;
      const missing = await server.request('GET', '/api/v1/users/00000000-0000-4000-8000-00000000dead', { token: admin });
      expect(missing.status).toBe(404);
      expect(en[missing.body.code]).toBeDefined();
      const unauthorized = await server.request('GET', '/api/v1/profiles/my');
      expect(unauthorized.status).toBe(401);
      expect(en[unauthorized.body.code]).toBe('Send Authorization: Bearer <token>');
    });
  });
});

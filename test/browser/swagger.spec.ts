import { Browser, Locator, Page } from 'playwright-core';
import { ADMIN_LOGIN, ADMIN_PASSWORD, startServer, TestServer } from '../helpers/server';
import { launchChromium, screenshot, shows, watchProblems } from './chromium';

/** Swagger UI in Chromium: log in with POST /authorization, Authorize with the token, call a guarded endpoint. */
describe('browser: Swagger UI', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /**
   * The block of an operation, scrolled into the page: Swagger UI 5 renders only the tag sections near the
   * viewport (a virtualized list), so a block far from it is not in the DOM until the page scrolls to it.
   */
  async function reveal(page: Page, operationId: string): Promise<Locator> {
    const block = page.locator(`[id$="-${operationId}"].opblock`);
    await page.evaluate('window.scrollTo(0, 0)');
    for (let step = 0; step < 60 && (await block.count()) === 0; step++) {
      await page.evaluate('window.scrollBy(0, 300)');
      await page.waitForTimeout(100);
    }
    await block.scrollIntoViewIfNeeded();
    return block;
  }

  /** Expands an operation, presses Try it out, optionally types the body, runs it; answers the block. */
  async function execute(page: Page, operationId: string, body?: unknown): Promise<Locator> {
    const block = await reveal(page, operationId);
    await block.locator('.opblock-summary').first().click();
    await block.getByRole('button', { name: 'Try it out' }).click();
    if (body !== undefined) await block.locator('textarea.body-param__text').fill(JSON.stringify(body));
    await Promise.all([page.waitForResponse((r) => r.url().includes('/api/v1/')), block.getByRole('button', { name: 'Execute' }).click()]);
    await block.locator('.live-responses-table tr.response .response-col_status').first().waitFor();
    return block;
  }

  async function responseOf(block: Locator): Promise<{ status: string; body: string }> {
    const status = (await block.locator('.live-responses-table tr.response .response-col_status').first().innerText()).trim();
    const body = await block.locator('.live-responses-table tr.response .response-col_description pre').first().innerText();
    return { status, body };
  }

  it('loads, runs POST /authorization, takes the token in Authorize and calls a guarded endpoint', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    try {
      await page.goto(`${server.url}/swagger/ui/`);
      await shows(page.locator('.swagger-ui .info .title'), 'finapi');
      // The description explains the Authorize steps and the bearer scheme.
      await shows(page.locator('.swagger-ui .info .description'), 'press Authorize');

      // Without a token the guarded call is refused.
      const unauthorized = await responseOf(await execute(page, 'getMyProfile'));
      expect(unauthorized.status).toBe('401');

      const login = await execute(page, 'login', { login: ADMIN_LOGIN, password: ADMIN_PASSWORD });
      const answer = await responseOf(login);
      expect(answer.status).toBe('200');
      const token: string = JSON.parse(answer.body).authorizationToken.token;
      expect(token).toEqual(expect.any(String));

      await page.locator('.scheme-container button.authorize').click();
      const modal = page.locator('.modal-ux');
      await shows(modal, 'bearer');
      await modal.getByLabel('auth-bearer-value').fill(token);
      await modal.getByRole('button', { name: 'Apply credentials' }).click();
      await shows(modal, 'Authorized');
      expect(await modal.getByRole('button', { name: 'Remove authorization' }).isVisible()).toBe(true);
      await modal.getByRole('button', { name: 'Close' }).click();
      await modal.waitFor({ state: 'hidden' });

      const profile = await reveal(page, 'getMyProfile');
      await profile.getByRole('button', { name: 'Execute' }).click();
      await profile.locator('.live-responses-table tr.response .response-col_status').filter({ hasText: '200' }).waitFor();
      const my = await responseOf(profile);
      expect(my.status).toBe('200');
      expect(JSON.parse(my.body).user.login).toBe(ADMIN_LOGIN);
      // The request Swagger UI sent carried the bearer token.
      expect(await profile.locator('.curl-command').innerText()).toContain('Authorization: Bearer');
      await page.locator('.scheme-container').scrollIntoViewIfNeeded();
      await screenshot(page, 'swagger-authorized', false);
      await (await reveal(page, 'getMyProfile')).locator('.live-responses-table').scrollIntoViewIfNeeded();
      await screenshot(page, 'swagger-guarded-call', false);
      // Swagger UI works under its Content-Security-Policy: no violation, no script error.
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('is served with its own Content-Security-Policy and no framing', async () => {
    const response = await server.request('GET', '/swagger/ui/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

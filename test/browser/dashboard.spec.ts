import { Browser, BrowserContext, Page } from 'playwright-core';
import { Actor, adminToken, aUser } from '../helpers/actors';
import { aCoin, aCurrency, anIssuer, fund, transfer } from '../helpers/money';
import { ADMIN_LOGIN, ADMIN_PASSWORD, startServer, TestServer } from '../helpers/server';
import { launchChromium, screenshot, shows, watchProblems } from './chromium';

/** The dashboard page (issue 17): charts drawn from GET /api/v1/dashboard, for administrators only. */
describe('browser: the dashboard', () => {
  let server: TestServer;
  let browser: Browser;
  let alice: Actor;
  const contexts: BrowserContext[] = [];
  const watched: string[][] = [];

  beforeAll(async () => {
    server = await startServer();
    const admin = await adminToken(server);
    const currency = await aCurrency(server, admin, { code: 'DSH' });
    const issuer = await anIssuer(server, admin, currency.code);
    alice = await aUser(server, admin);
    const bob = await aUser(server, admin);
    const from = await aCoin(server, alice.token, issuer.id);
    const to = await aCoin(server, bob.token, issuer.id);
    await fund(server, admin, from.serial, '500.00');
    await transfer(server, alice.token, from.serial, to.serial, '125.50');
    await server.request('POST', '/api/v1/authorization', { body: { login: bob.login, password: 'wrong-password-1' } });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    expect(watched.splice(0).flat()).toEqual([]);
  });

  async function loggedIn(login: string, password: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    watched.push(watchProblems(page));
    await page.goto(server.url + '/login');
    await page.getByLabel('Login', { exact: true }).fill(login);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await shows(page.getByRole('heading', { level: 1 }), 'You are logged in');
    await page.goto(server.url + '/dashboard');
    return page;
  }

  it('draws volumes per day and currency, open holds, failed logins and webhook failures as charts', async () => {
    const page = await loggedIn(ADMIN_LOGIN, ADMIN_PASSWORD);
    const volume = page.getByRole('img', { name: /^Volume in DSH:/ });
    await volume.waitFor();
    // Today's bar: the top-up and the transfer.
    expect(await volume.getAttribute('aria-label')).toContain('625.5 DSH in 2 operations');
    expect(await page.locator('#volumes rect.bar').count()).toBe(14);
    const logins = page.getByRole('img', { name: /^Failed logins:/ });
    expect(await logins.getAttribute('aria-label')).toMatch(/ 1$|, .* 1$/);
    await page.getByRole('img', { name: /^Webhook deliveries given up:/ }).waitFor();
    await shows(page.locator('#holds'), 'No open holds.');
    await screenshot(page, 'dashboard');
  });

  it('tells a customer it is not permitted', async () => {
    const page = await loggedIn(alice.login, alice.password);
    await shows(page.getByRole('heading', { level: 2 }), 'Not permitted');
    await screenshot(page, 'dashboard-not-permitted');
  });
});

import { Browser, BrowserContext, Page } from 'playwright-core';
import { Actor, adminToken, aUser } from '../helpers/actors';
import { ADMIN_LOGIN, ADMIN_PASSWORD, startServer, TestServer } from '../helpers/server';
import { launchChromium, screenshot, sessionStorageOf, shows, watchProblems } from './chromium';

/**
 * The browser flow of specification section 5, driven in Chromium and checked by what the pages show:
 * the login page, On Hold, the administrator's console, the temporary password, log-out.
 */
describe('browser: login page and administrator console', () => {
  let server: TestServer;
  let browser: Browser;
  let admin: string;
  let alice: Actor; // an individual who mistypes once
  let bob: Actor; // an individual who ends On Hold, is released and chooses a new password
  let temporaryPassword = '';
  const bobNewPassword = 'bob-new-password-9';
  const contexts: BrowserContext[] = [];
  const watched: string[][] = [];

  beforeAll(async () => {
    server = await startServer();
    admin = await adminToken(server);
    alice = await aUser(server, admin, { name: 'Alice Example' });
    bob = await aUser(server, admin, { name: 'Bob Example' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    // No script error and no CSP violation on any page a test opened.
    expect(watched.splice(0).flat()).toEqual([]);
  });

  async function openPage(path: string, viewport = { width: 1280, height: 800 }): Promise<{ page: Page; context: BrowserContext }> {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    const page = await context.newPage();
    watched.push(watchProblems(page));
    await page.goto(server.url + path);
    return { page, context };
  }

  /** Submits the login form and waits for the service's answer. */
  async function logIn(page: Page, login: string, password: string): Promise<void> {
    await page.getByLabel('Login', { exact: true }).fill(login);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/authorization') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Log in' }).click(),
    ]);
  }

  it('a wrong password keeps the login page with the message (keyboard only)', async () => {
    const { page } = await openPage('/');
    expect(new URL(page.url()).pathname).toBe('/login');
    await shows(page.getByRole('heading', { level: 1 }), 'Log in');
    await screenshot(page, 'login-page');

    // The login field has the focus; Tab moves to the password; Enter submits.
    expect(
      await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id),
    ).toBe('login');
    await page.keyboard.type(alice.login);
    await page.keyboard.press('Tab');
    await page.keyboard.type('not-the-password');
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/v1/authorization')), page.keyboard.press('Enter')]);

    await shows(page.getByRole('status'), 'Wrong login or password. Check them and try again.');
    expect(await page.getByLabel('Login', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByLabel('Login', { exact: true }).inputValue()).toBe(alice.login);
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');
    expect(await page.getByRole('heading', { name: 'You are logged in' }).isVisible()).toBe(false);
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, 'login-wrong-password');
    await page.close();
  });

  it('three wrong attempts, then the right password or a wrong one, show the same On Hold message', async () => {
    const { page } = await openPage('/login');
    for (let attempt = 1; attempt <= 3; attempt++) {
      await logIn(page, bob.login, `wrong-password-${attempt}`);
      await shows(page.getByRole('status'), 'Wrong login or password');
    }
    const onHold =
      'Your account is On Hold after too many failed login attempts, and no password is accepted until it is released. ' +
      'Contact an administrator to release it.';
    await logIn(page, bob.login, bob.password);
    expect(await shows(page.getByRole('status'), 'On Hold')).toBe(onHold);
    // While On Hold the page cannot tell a right password from a wrong one (issue 29): the service does not say.
    // (Submitting clears the message, so this is the second answer's.)
    await logIn(page, bob.login, 'wrong-password-4');
    expect(await shows(page.getByRole('status'), 'On Hold')).toBe(onHold);
    expect(await page.getByLabel('Login', { exact: true }).isVisible()).toBe(true);
    expect(await sessionStorageOf(page)).toEqual({});
    await screenshot(page, 'login-on-hold');
    await page.close();
  });

  it('an administrator logs in, sees the user in the console, releases them and reads the temporary password', async () => {
    const { page, context } = await openPage('/login');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await logIn(page, ADMIN_LOGIN, ADMIN_PASSWORD);

    // The logged-in view: who, the role, the token's expiry.
    await shows(page.getByRole('heading', { level: 1 }), 'You are logged in');
    expect(await page.locator('#session-user').innerText()).toContain(ADMIN_LOGIN);
    expect(await page.locator('#session-role').innerText()).toBe('Administrator');
    const expiry = await page.locator('#session-expiry').getAttribute('datetime');
    expect(Date.parse(expiry ?? '')).toBeGreaterThan(Date.now());
    expect(await page.locator('#session-expiry').innerText()).not.toBe('');
    // The token is kept for the session only, never in the address.
    const stored = JSON.parse((await sessionStorageOf(page))['finapi.session']);
    expect(stored.token).toEqual(expect.any(String));
    expect(page.url()).not.toContain(stored.token);
    await screenshot(page, 'logged-in');

    await page.getByRole('link', { name: "Administrator's console" }).click();
    await page.waitForURL('**/admin');
    const row = page.getByRole('row').filter({ hasText: bob.login });
    await row.waitFor();
    expect(await row.innerText()).toContain('Bob Example');
    await screenshot(page, 'console');

    // Search by login narrows the list to Bob.
    await page.getByLabel('Search by login').fill(bob.login);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await shows(page.locator('#summary'), `1 user On Hold matching “${bob.login}”.`);

    await page.getByRole('button', { name: `Release ${bob.login}` }).click();
    await shows(page.getByRole('heading', { name: 'Temporary password' }), 'Temporary password');
    await shows(page.getByRole('status'), `${bob.login} has been released`);
    temporaryPassword = (await page.locator('#temporary-password').innerText()).trim();
    expect(temporaryPassword.length).toBeGreaterThanOrEqual(8);

    await page.getByRole('button', { name: 'Copy password' }).click();
    await shows(page.getByRole('status'), 'copied to the clipboard');
    const clipboard = await page.evaluate(() =>
      (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
    );
    expect(clipboard).toBe(temporaryPassword);
    // Bob is no longer On Hold.
    await shows(page.locator('#summary'), `No users On Hold matching “${bob.login}”.`);
    await screenshot(page, 'console-released');

    // Shown once: dismissing it removes it from the page.
    await page.getByRole('button', { name: 'Done: hide the password' }).click();
    expect(await page.getByText(temporaryPassword).count()).toBe(0);
    await page.close();
  });

  it('the released user logs in with the temporary password, changes it and is logged in; log-out returns to the login page', async () => {
    expect(temporaryPassword).not.toBe('');
    const { page } = await openPage('/login');
    await logIn(page, bob.login, temporaryPassword);
    await shows(page.getByRole('heading', { level: 1 }), 'Choose a new password');
    await shows(page.getByRole('status'), 'Choose a new password to continue');
    expect(await page.getByLabel('Temporary password', { exact: true }).inputValue()).toBe(temporaryPassword);

    // The password Bob had before the hold may not come back (issue 29): one of his last 5.
    await page.getByLabel('New password', { exact: true }).fill(bob.password);
    await page.getByLabel('Repeat the new password', { exact: true }).fill(bob.password);
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/authorization/password')),
      page.getByRole('button', { name: 'Change password' }).click(),
    ]);
    await shows(page.getByRole('status'), 'You have used this password recently. Choose one that is not one of your last 5 passwords.');

    // A mismatch is caught on the page.
    await page.getByLabel('New password', { exact: true }).fill(bobNewPassword);
    await page.getByLabel('Repeat the new password', { exact: true }).fill('something-else-1');
    await page.getByRole('button', { name: 'Change password' }).click();
    await shows(page.getByRole('status'), 'The two new passwords do not match');

    await page.getByLabel('Repeat the new password', { exact: true }).fill(bobNewPassword);
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/authorization/password')),
      page.getByRole('button', { name: 'Change password' }).click(),
    ]);
    await shows(page.getByRole('heading', { level: 1 }), 'You are logged in');
    await shows(page.getByRole('status'), 'Your password has been changed. You are logged in.');
    expect(await page.locator('#session-user').innerText()).toBe(`Bob Example (${bob.login})`);
    expect(await page.locator('#session-role').innerText()).toBe('Individual');
    expect(await page.getByRole('link', { name: "Administrator's console" }).isVisible()).toBe(false);
    const token: string = JSON.parse((await sessionStorageOf(page))['finapi.session']).token;
    expect((await server.request('GET', '/api/v1/profiles/my', { token })).status).toBe(200);

    // Log out: back to the login form, the token revoked and forgotten.
    await page.getByRole('button', { name: 'Log out' }).click();
    await shows(page.getByRole('heading', { level: 1 }), 'Log in');
    await shows(page.getByRole('status'), 'You have logged out.');
    expect(await page.getByLabel('Login', { exact: true }).isVisible()).toBe(true);
    expect(await sessionStorageOf(page)).toEqual({});
    expect((await server.request('GET', '/api/v1/profiles/my', { token })).status).toBe(401);
    await page.reload();
    await shows(page.getByRole('heading', { level: 1 }), 'Log in');

    // The new password works.
    expect((await server.request('POST', '/api/v1/authorization', { body: { login: bob.login, password: bobNewPassword } })).status).toBe(
      200,
    );
    await page.close();
  });

  it('the console tells a visitor to log in, and a non-administrator that it is not permitted', async () => {
    const { page } = await openPage('/admin');
    await shows(page.getByRole('heading', { level: 2 }), 'You are not logged in');
    await page.getByRole('link', { name: 'Go to the login page' }).click();
    await page.waitForURL('**/login');

    await logIn(page, alice.login, alice.password);
    await shows(page.getByRole('heading', { level: 1 }), 'You are logged in');
    await page.goto(server.url + '/admin');
    await shows(page.getByRole('heading', { level: 2 }), 'Not permitted');
    await shows(page.getByRole('status'), 'Not permitted');
    expect(await page.getByRole('button', { name: /^Release/ }).count()).toBe(0);
    await screenshot(page, 'console-not-permitted');
    await page.close();
  });

  it('is readable on a phone-sized screen', async () => {
    const { page } = await openPage('/login', { width: 375, height: 740 });
    const overflow = () =>
      page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document
          .documentElement;
        return root.scrollWidth - root.clientWidth;
      });
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'login-page-phone');
    await logIn(page, ADMIN_LOGIN, ADMIN_PASSWORD);
    await shows(page.getByRole('heading', { level: 1 }), 'You are logged in');
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'logged-in-phone');
    await page.goto(server.url + '/admin');
    await page
      .locator('#summary')
      .filter({ hasText: /On Hold/ })
      .waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'console-phone');
    await page.close();
  });

  it('sends the security headers with the pages', async () => {
    for (const path of ['/login', '/admin', '/assets/login.js']) {
      const response = await server.request('GET', path);
      expect(response.status).toBe(200);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    }
    // No inline script on the pages: every script is a file.
    const html = (await server.request('GET', '/login')).text + (await server.request('GET', '/admin')).text;
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const redirect = await fetch(server.url + '/', { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/login');
    expect((await server.request('GET', '/api/v1/actuator/api-list')).headers.get('x-content-type-options')).toBe('nosniff');
  });
});

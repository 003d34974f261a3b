import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium, Locator, Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`); .ci/run installs it when missing. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(__dirname, 'screenshots');

/** Launches headless Chromium; a missing browser fails the suite, it is never skipped. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}: run "apt-get install -y chromium" (the browser tests need it)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    timeout: 30_000,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
}

/**
 * Collects what would mean a broken page: uncaught script errors and Content-Security-Policy
 * violations (Chromium reports those on the console). A refused API call (401, 403) is expected.
 */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  return problems;
}

/** Waits until the locator shows the text, then answers what it shows. */
export async function shows(locator: Locator, text: string | RegExp, timeout = 10_000): Promise<string> {
  const match = locator.filter({ hasText: text }).first();
  await match.waitFor({ state: 'visible', timeout });
  return (await match.innerText()).trim();
}

interface StorageLike {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
}

/** The page's sessionStorage, to check where the token is kept (the tests compile without the DOM types). */
export function sessionStorageOf(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const storage = (globalThis as unknown as { sessionStorage: StorageLike }).sessionStorage;
    const out: Record<string, string> = {};
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i) ?? '';
      out[key] = storage.getItem(key) ?? '';
    }
    return out;
  });
}

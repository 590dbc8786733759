import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export type Browser = {
  context: BrowserContext;
  /** A new tab; `width`/`height` default to a laptop screen. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
};

/**
 * The system Chromium driven by playwright-core, with a fresh temporary profile (`--user-data-dir`) that is
 * deleted on close. Console errors of the pages are collected so a test can assert there were none.
 */
export async function launchBrowser(): Promise<Browser & { pageErrors: string[] }> {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'pawhaven-e2e-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
  });
  const pageErrors: string[] = [];
  context.on('page', (page) => page.on('pageerror', (err) => pageErrors.push(String(err))));
  for (const page of context.pages()) page.on('pageerror', (err) => pageErrors.push(String(err)));
  return {
    context,
    pageErrors,
    async newPage(viewport) {
      const page = await context.newPage();
      if (viewport) await page.setViewportSize(viewport);
      page.setDefaultTimeout(10_000);
      return page;
    },
    async close() {
      await context.close().catch(() => {});
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Opens the header's account menu (the 'Hi, {username}' button) and picks an entry. */
export async function chooseAccountMenu(page: Page, entry: 'My Profile' | 'Sign Out') {
  await page.getByRole('button', { name: /^Hi, / }).click();
  await page.getByRole('menuitem', { name: entry }).click();
}

/** The pathname of the page, for `expect.poll`. */
export const pathnameOf = (page: Page) => new URL(page.url()).pathname;

/** Waits until the page's pathname equals `pathname`. */
export async function waitForPath(page: Page, pathname: string, timeout = 10_000) {
  await page.waitForURL((url) => url.pathname === pathname, { timeout });
}

/**
 * The browser's globals as seen from Node: these tests type-check without the DOM library, and the functions
 * passed to `page.evaluate` run in the page, where `globalThis` is the window.
 */
type WebStorage = { getItem(key: string): string | null; setItem(key: string, value: string): void };
export type PageGlobals = {
  localStorage: WebStorage;
  sessionStorage: WebStorage;
  document: { documentElement: { scrollWidth: number; clientWidth: number } };
};

/** The session keys of both storages, to check what the browser keeps. */
export function storedSession(page: Page) {
  return page.evaluate(() => {
    const { localStorage, sessionStorage } = globalThis as unknown as PageGlobals;
    return {
      local: { token: localStorage.getItem('token'), user: localStorage.getItem('user') },
      session: { token: sessionStorage.getItem('token'), user: sessionStorage.getItem('user') },
      everything: JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    };
  });
}

/** A sessionStorage entry of the page. */
export const sessionItem = (page: Page, key: string) =>
  page.evaluate((k) => (globalThis as unknown as PageGlobals).sessionStorage.getItem(k), key);

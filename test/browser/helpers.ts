/**
 * The browser suite: the real service (test/helpers/server.ts) and the web app it serves, driven in
 * Debian's Chromium (`apt-get install -y chromium`) by playwright-core. Without the browser the
 * suite is skipped with that hint, except on CI (CI=true) where it fails.
 *
 * Every page is watched: a request or WebSocket to anything but the test server's loopback
 * address, an uncaught page error or a console error fails the test that saw it (console errors
 * a test provokes on purpose, such as the browser's line for a 401 answer, are allowed by pattern).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createOrganization, type Tier } from '../../server/auth/keys.ts';
import { Client, startTestServer, type TestServer } from '../helpers/server.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = fs.existsSync(CHROMIUM);
const onCi = process.env.CI === 'true';

/** Where the suite saves its screenshots (git-ignored). */
export const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/browser');

/** `describe`, or a skip with how to install the browser (a failure on CI). */
export function describeBrowser(name: string, body: () => void): void {
  if (available) {
    describe(name, body);
    return;
  }
  const hint = `${CHROMIUM} is missing: install it with \`apt-get install -y chromium\` (Debian package) to run the browser suite`;
  if (onCi) {
    describe(name, () => {
      it('needs Chromium on CI', () => {
        throw new Error(hint);
      });
    });
    return;
  }
  console.warn(`Browser suite skipped: ${hint}.`);
  describe.skip(name, body);
}

/**
 * A service and a Chromium for a test file: started together before its tests (then `ready`),
 * closed after them.
 */
export function browserSuite(ready: (server: TestServer, browser: Browser) => void | Promise<void>): void {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    await ready(server, browser);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** An organization with an admin key (the key management endpoints need one). */
export async function adminClient(server: TestServer, tier: Tier = 'enterprise'): Promise<Client> {
  const org = await createOrganization(server.svc.ctx.engine, `org-${Math.random().toString(36).slice(2, 8)}`, tier);
  const { api_key } = await createApiKey(server.svc.ctx.engine, org.id, 'dashboard admin', 'admin');
  return new Client(server.url, api_key, org.id);
}

export interface Watched {
  page: Page;
  context: BrowserContext;
  /** Requests and sockets that went anywhere but the test server's loopback host. */
  external: string[];
  /** Console errors and page errors, minus those allowed. */
  errors: string[];
  /** Allows console errors matching this (a refusal the test provokes). */
  allow(pattern: RegExp): void;
  /** Fails on an external request or an unexpected console error. */
  expectClean(): void;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A new context (its own storage: a separate browser user) with one page, watched. `key` is put
 * in sessionStorage before the app runs (signed in); `name` is the editor name shown to others.
 */
export async function openPage(browser: Browser, opts: { key?: string; name?: string; width?: number; height?: number } = {}): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 }, acceptDownloads: true });
  await context.addInitScript(
    ([key, name]) => {
      // Runs in the page (the test code is type-checked without the DOM's types).
      const g = globalThis as any;
      if (key) g.sessionStorage.setItem('study.apiKey', key);
      if (name) g.localStorage.setItem('study.displayName', name);
    },
    [opts.key ?? null, opts.name ?? null] as const,
  );
  const page = await context.newPage();
  const external: string[] = [];
  const errors: string[] = [];
  const allowed: RegExp[] = [];
  const check = (url: string) => {
    const u = new URL(url);
    if (u.protocol === 'data:' || u.protocol === 'blob:' || u.protocol === 'about:') return;
    if (!LOOPBACK.has(u.hostname)) external.push(url);
  };
  page.on('request', (r) => check(r.url()));
  page.on('websocket', (ws) => check(ws.url()));
  page.on('console', (m) => {
    if (m.type() === 'error' && !allowed.some((re) => re.test(m.text()))) errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  return {
    page,
    context,
    external,
    errors,
    allow: (re) => allowed.push(re),
    expectClean() {
      expect(external, 'requests that left loopback').toEqual([]);
      expect(errors, 'console errors').toEqual([]);
    },
  };
}

/** The browser's own console line for an answer with this status (Chromium logs every failed fetch). */
export function statusLine(status: number): RegExp {
  return new RegExp(`Failed to load resource: the server responded with a status of ${status}`);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The screenshots of the app's screens that the docs show (docs/screenshots/, committed). */
export const DOC_SCREENSHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');

/** Saves a screenshot of a screen for the docs (docs/screenshots/{name}.png). */
export async function docScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(DOC_SCREENSHOTS, { recursive: true });
  const file = path.join(DOC_SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Puts the caret after `skip` characters of the block holding `text`, and selects the next `select`. */
export async function selectInBlock(page: Page, text: string, skip: number, select: number): Promise<void> {
  await page.locator('.ProseMirror > *', { hasText: text }).first().click();
  await page.keyboard.press('Home');
  for (let i = 0; i < skip; i++) await page.keyboard.press('ArrowRight');
  for (let i = 0; i < select; i++) await page.keyboard.press('Shift+ArrowRight');
}

/** Waits until the editor of the page is mounted and its connection is synced. */
export async function editorReady(page: Page): Promise<void> {
  await page.locator('#connection[data-state="connected"]').waitFor();
  await page.locator('.ProseMirror').waitFor();
}

/** The editor's text, one line per top-level block (remote cursors' name labels left out). */
export function editorText(page: Page): Promise<string> {
  return page.locator('.ProseMirror').evaluate((el) => {
    const copy = el.cloneNode(true) as typeof el;
    for (const cursor of copy.querySelectorAll('.ProseMirror-yjs-cursor')) cursor.remove();
    return [...copy.children].map((c) => c.textContent).join('\n');
  });
}

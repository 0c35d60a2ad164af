/**
 * The API playground at /docs in Chromium: Swagger UI (served by the service from swagger-ui-dist)
 * authorizes with a key, and "Try it out" sends the real request to this service and shows its
 * answer. Nothing is fetched from anywhere else.
 */
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.ts';
import { browserSuite, describeBrowser, openPage, screenshot } from './helpers.ts';

describeBrowser('web app: API playground', () => {
  let server: TestServer;
  let browser: Browser;

  browserSuite((s, b) => {
    [server, browser] = [s, b];
  });

  it('"Try it out" with Authorize answers from this service', async () => {
    const c = await server.newClient();
    await c.importMarkdown('# From the playground\n', 'Playground journal');
    const w = await openPage(browser);
    const { page } = w;
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/v1/journals/list')) sent.push(r.headers().authorization ?? '');
    });
    await page.goto(`${server.url}/docs`);
    await page.locator('.swagger-ui .information-container').waitFor();

    await page.click('.swagger-ui button.authorize');
    await page.locator('.modal-ux input').first().fill(c.key!);
    await page.click('.modal-ux .auth-btn-wrapper button.authorize');
    await page.click('.modal-ux button.btn-done');

    const op = page.locator('.opblock-get', { has: page.locator('[data-path="/v1/journals/list"]') });
    await op.locator('.opblock-summary').first().click();
    const tryIt = op.locator('button.try-out__btn');
    if ((await tryIt.count()) > 0 && (await tryIt.textContent())?.includes('Try it out')) await tryIt.click();
    await op.locator('button.execute').click();
    const status = op.locator('.live-responses-table tbody td.response-col_status').first();
    await expect.poll(() => status.textContent()).toMatch(/^200/);
    await expect.poll(() => op.locator('.live-responses-table tbody td.response-col_description').first().textContent()).toContain('Playground journal');
    // The key went in the Authorization header of the real request, not in its URL.
    expect(sent).toEqual([`Bearer ${c.key}`]);
    await screenshot(page, 'docs-playground');
    w.expectClean();
    await w.context.close();
  });
});

/**
 * The key dashboard in Chromium: an admin creates a key (its secret shown once, with a copy
 * button), the key works, the admin revokes it and it is refused at once; a member key sees the
 * API's 403 instead of the keys; every key sees its balance, spend per endpoint per day and what
 * is left of its rate limits.
 */
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import { Client, type TestServer } from '../helpers/server.ts';
import { adminClient, browserSuite, describeBrowser, openPage, screenshot, statusLine } from './helpers.ts';

describeBrowser('web app: keys and usage', () => {
  let server: TestServer;
  let browser: Browser;

  browserSuite((s, b) => {
    [server, browser] = [s, b];
  });

  it('an admin creates a key, copies its secret once, and revokes it: refused at once', async () => {
    const admin = await adminClient(server);
    const w = await openPage(browser, { key: admin.key! });
    await w.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const { page } = w;
    await page.goto(`${server.url}/app/settings`);
    await page.locator('#key-list').waitFor();
    expect(await page.locator('#key-list tbody tr .key-name').allTextContents()).toEqual(['dashboard admin']);
    // The admin's own key was used just now: its last use shows.
    await expect.poll(async () => (await admin.get('/v1/keys')).body.keys[0].last_used_at).not.toBeNull();

    await page.fill('#key-name', 'CI pipeline');
    await page.selectOption('#key-role', 'member');
    await page.click('#create-key');
    const secret = (await page.locator('#new-key-secret').textContent())!;
    expect(secret).toMatch(/^sk_study_/);
    await page.click('#copy-key');
    await expect.poll(() => page.locator('#copy-key').textContent()).toBe('Copied');
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(secret);
    await expect.poll(() => page.locator('#key-list tbody tr .key-name').allTextContents()).toEqual(['CI pipeline', 'dashboard admin']);
    const row = page.locator('#key-list tbody tr', { hasText: 'CI pipeline' });
    expect(await row.locator('.role').textContent()).toBe('member');
    expect(await row.locator('.last-used').textContent()).toBe('never');
    // Shown once: the list and a reload never show it again.
    expect(await page.locator('#key-list').textContent()).not.toContain(secret);

    const created = new Client(server.url, secret, admin.orgId);
    expect((await created.get('/v1/journals/list')).status).toBe(200);
    await screenshot(page, 'settings-admin');

    await row.locator('button.revoke').click();
    await page.click('dialog button[type=submit]');
    await expect.poll(() => page.locator('.notice').first().textContent()).toContain('Key “CI pipeline” revoked');
    await expect.poll(() => page.locator('#key-list tbody tr .key-name').allTextContents()).toEqual(['dashboard admin']);
    // Refused from the next request on.
    const refused = await created.get('/v1/journals/list');
    expect(refused.status).toBe(401);
    await page.reload();
    await page.locator('#key-list').waitFor();
    expect(await page.locator('#key-list').textContent()).not.toContain(secret);
    w.expectClean();
    await w.context.close();
  });

  it('the last admin key cannot be revoked: the API’s 409 is shown', async () => {
    const admin = await adminClient(server);
    const w = await openPage(browser, { key: admin.key! });
    w.allow(statusLine(409));
    const { page } = w;
    await page.goto(`${server.url}/app/settings`);
    await page.locator('#key-list tbody tr button.revoke').click();
    await page.click('dialog button[type=submit]');
    await expect.poll(() => page.locator('.error[data-status="409"]').textContent()).toMatch(/^409: /);
    expect((await admin.get('/v1/journals/list')).status).toBe(200);
    w.expectClean();
    await w.context.close();
  });

  it('a member key sees the API’s 403 for keys, and its balance, spend per day and limits', async () => {
    const admin = await adminClient(server, 'developer');
    const member = await server.sameOrgClient(admin);
    // Some paid work of the organization today: imports, reads.
    const id = await member.importMarkdown('# Spend\n\nSome text.\n', 'Spend');
    for (let i = 0; i < 3; i++) expect((await member.get(`/v1/journals/content/${id}`)).status).toBe(200);
    const w = await openPage(browser, { key: member.key! });
    w.allow(statusLine(403));
    const { page } = w;
    await page.goto(`${server.url}/app/settings`);
    const refusal = page.locator('#keys .error[data-status="403"]');
    await expect.poll(() => refusal.textContent()).toMatch(/^403: Forbidden: only an admin key manages the organization's keys; this key's role is member/);
    expect(await page.locator('#key-list').count()).toBe(0);
    expect(await page.locator('#create-key').count()).toBe(0);

    const usage = (await member.get('/v1/usage?days=14')).body;
    await page.locator('#spend-chart').waitFor();
    // To the micro-dollar, not rounded to cents.
    const balance = (await page.locator('#credit-balance').textContent())!;
    expect(balance).toMatch(/^\$\d+\.\d{2,6}$/);
    expect(Number(balance.slice(1))).toBeCloseTo(usage.credit_balance, 6);
    expect(usage.credit_balance).toBeLessThan(5);
    // Today's bar has a segment per endpoint that cost something, named in its tooltip.
    const today = usage.spend.days.at(-1);
    expect(today.endpoints.length).toBeGreaterThanOrEqual(2);
    const segments = page.locator(`#spend-chart rect.bar[data-date="${today.date}"]`);
    expect((await segments.evaluateAll((els) => els.map((e) => e.getAttribute('data-endpoint')))).sort()).toEqual(today.endpoints.map((e: any) => e.endpoint).sort());
    expect(await page.locator('#spend-chart rect.bar').count()).toBe(today.endpoints.length);
    expect(await page.locator('.legend').textContent()).toContain('PUT /journals/editor/import_from_markdown');
    // Limits in force with what is left: 10 markdown reads a minute on the Developer tier, 3 used.
    const reads = page.locator('#limit-list tr', { hasText: 'GET /journals/content/{id}' });
    expect(await reads.locator('td').nth(1).textContent()).toBe('7 of 10 left');
    await screenshot(page, 'settings-member');
    w.expectClean();
    await w.context.close();
  });
});

/**
 * Practice sets, videos and flashcards made from a journal, in Chromium (issue 32): each created
 * from the journal's Study page, its progress shown until it is done, then shown (problems, a
 * playable video, cards) and deleted.
 */
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Client, TestServer } from '../helpers/server.ts';
import { browserSuite, describeBrowser, docScreenshot, openPage } from './helpers.ts';

const NOTES = [
  '# Linear equations',
  '',
  'A linear equation in one variable has the form ax + b = c.',
  '',
  'To solve it, subtract b from both sides and divide by a.',
  '',
  'The solution of 2x + 3 = 7 is x = 2.',
  '',
  'Photosynthesis is the process by which plants make sugar from light.',
  '',
].join('\n');

describeBrowser('web app: study material from a journal', () => {
  let server: TestServer;
  let browser: Browser;
  let c: Client;

  browserSuite(async (s, b) => {
    [server, browser] = [s, b];
    c = await server.newClient('enterprise');
  });

  it('makes, shows and deletes a practice set, flashcards and a video', async () => {
    const id = await c.importMarkdown(NOTES, 'Linear equations');
    const w = await openPage(browser, { key: c.key! });
    const { page } = w;
    await page.goto(`${server.url}/app/journals/${id}/study`);
    await expect.poll(() => page.locator('#journal-title').textContent()).toBe('Study “Linear equations”');

    // Practice set: progress, then the problems.
    await page.fill('#practice-topic', 'linear equations in one variable');
    await page.fill('#practice-count', '2');
    await page.click('#create-practice');
    const set = page.locator('#practice-list .practice').first();
    await set.waitFor();
    await expect.poll(() => set.getAttribute('data-status'), { timeout: 60_000 }).toBe('completed');
    expect(await set.locator('.problems > li').count()).toBe(2);

    // Flashcards from the journal.
    await page.fill('#deck-count', '3');
    await page.click('#create-deck');
    const deck = page.locator('#deck-list .deck').first();
    await deck.waitFor();
    expect(await deck.locator('dt').count()).toBeGreaterThan(0);

    // A video: progress, then it plays from an object URL.
    await page.fill('#video-seconds', '10');
    await page.click('#create-video');
    const video = page.locator('#video-list .video').first();
    await video.waitFor();
    await expect.poll(() => video.getAttribute('data-status'), { timeout: 120_000, interval: 500 }).toBe('completed');
    await video.locator('button.play').click();
    await video.locator('video').waitFor();
    await expect.poll(() => video.locator('video').evaluate((v: any) => v.readyState), { timeout: 20_000 }).toBeGreaterThan(0);
    await docScreenshot(page, 'study');

    // Each is deleted from the page and gone from the API.
    await set.locator('button.delete').click();
    await deck.locator('button.delete').click();
    await video.locator('button.delete').click();
    await expect.poll(async () => (await c.get('/v1/interactives/practice/list')).body.sets.length).toBe(0);
    await expect.poll(async () => (await c.get('/v1/interactives/flashcards/list')).body.decks.length).toBe(0);
    await expect.poll(async () => (await c.get('/v1/video/list')).body.videos.length).toBe(0);
    await expect.poll(() => page.locator('#practice-list .empty, #deck-list .empty, #video-list .empty').count()).toBe(3);
    w.expectClean();
    await w.context.close();
  });
});

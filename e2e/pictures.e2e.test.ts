import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADS, demoAdPicture } from '@pawhaven/command-api';
import { DEMO_POSTS, demoPostPicture } from '@pawhaven/command-api';
import { startE2eApp, type E2eApp } from './support/app';
import { launchBrowser, type Browser } from './support/browser';
import { horizontalOverflow, naturalWidth } from './support/community';
import { dismissTips } from './support/tips';

/**
 * The demo's drawn pictures in a real browser at 1280 px and 360 px, with the demo seeded as `npm start` seeds it on
 * its first start: every card on /adoption and /posts shows its picture (loaded, each ad its own), and that picture
 * is the drawing of that pet or post. Screenshots: test-results/pictures-{adoption,posts}-{1280,360}.png.
 */

const SCREENSHOTS = path.resolve(import.meta.dirname, '../test-results');
const WIDTHS = { 1280: { width: 1280, height: 800 }, 360: { width: 360, height: 740 } } as const;

let env: E2eApp;
const browsers: Browser[] = [];

beforeAll(async () => {
  env = await startE2eApp({}, { demoData: true });
});

afterAll(async () => {
  for (const b of browsers) await b.close();
  await env?.stop();
});

/** A page in a fresh browser whose tips are already dismissed, so no popup covers the cards. */
async function openPage(width: keyof typeof WIDTHS) {
  const browser = await launchBrowser();
  browsers.push(browser);
  await dismissTips(browser.context);
  return browser.newPage(WIDTHS[width]);
}

/** The image shown by `alt`, scrolled into view (cards load pictures lazily), once loaded: its bytes. */
async function shownImage(page: Page, alt: string) {
  const img = page.getByRole('img', { name: alt, exact: true });
  await img.scrollIntoViewIfNeeded();
  await expect.poll(() => naturalWidth(img)).toBeGreaterThan(0);
  const src = await img.getAttribute('src');
  const res = await page.request.get(new URL(src!, env.url).href);
  expect(res.status()).toBe(200);
  return { src: src!, bytes: await res.body() };
}

/** How far two pictures' pixels are apart on average (0–255 per channel), compared at one size. */
async function distance(a: Buffer, b: Buffer) {
  const raw = (img: Buffer) => sharp(img).resize(200, 150).removeAlpha().raw().toBuffer();
  const [x, y] = await Promise.all([raw(a), raw(b)]);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i]! - y[i]!);
  return sum / x.length;
}

async function screenshot(page: Page, name: string) {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.evaluate(() =>
    (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
  );
  await page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: true });
}

describe.each([1280, 360] as const)('the demo pictures at %i px', (width) => {
  it('/adoption: every ad shows its own drawn pet', async () => {
    const page = await openPage(width);
    await page.goto(`${env.url}/adoption`);
    const shown: { src: string; bytes: Buffer }[] = [];
    for (const ad of DEMO_ADS) {
      const image = await shownImage(page, `Photo of ${ad.name}`);
      // The stored picture is the drawing of this pet (re-encoded by the image store, so compared by pixels).
      expect(await distance(image.bytes, await demoAdPicture(ad)), ad.name).toBeLessThan(4);
      shown.push(image);
    }
    expect(new Set(shown.map((s) => s.src)).size).toBe(DEMO_ADS.length);
    expect(new Set(shown.map((s) => s.bytes.toString('base64'))).size).toBe(DEMO_ADS.length);
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, `pictures-adoption-${width}.png`);
  });

  it('/posts: every demo post shows its drawn scene', async () => {
    const page = await openPage(width);
    await page.goto(`${env.url}/posts`);
    for (const post of DEMO_POSTS) {
      const card = page.getByRole('article').filter({ hasText: post.caption });
      const img = card.getByRole('img', { name: /^Photo shared by / });
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => naturalWidth(img)).toBeGreaterThan(0);
      const res = await page.request.get(new URL((await img.getAttribute('src'))!, env.url).href);
      expect(await distance(await res.body(), await demoPostPicture(post)), post.scene).toBeLessThan(4);
    }
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, `pictures-posts-${width}.png`);
  });
});

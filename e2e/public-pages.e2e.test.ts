import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES, NOTIFICATION_MESSAGES } from '@pawhaven/contracts';
import { TIP_STORAGE_KEY } from '@pawhaven/frontend/popups/schedule';
import { startE2eApp, type E2eApp } from './support/app';
import { createVerifiedUser, signInInBrowser } from './support/adoption';
import { launchBrowser, pathnameOf, sessionItem, waitForPath, type Browser } from './support/browser';
import { apiCall, apiToken, horizontalOverflow, naturalWidth } from './support/community';
import { makePng } from './support/png';
import { dismissTips } from './support/tips';

/**
 * The public pages in real browsers at 1280 px and 360 px: the landing page's sections in order with live stats (the
 * placeholders '0k' and '4+' on an empty database), the first three team cards and 'See More Team Members' → /team with
 * the list in the navigation state, /team opened directly (fetches the list), the verified badge and one card section
 * open at a time, the contact form on / and /contactus (invalid e-mail: nothing sent; success: fields reset and a flag
 * for 5 s; failures), and the tip popups under Playwright's fake clock (5–20 s, alternating corners, dismissal
 * remembered for the session, never on /chat).
 */

const SCREENSHOTS = path.resolve(import.meta.dirname, '../test-results');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };

/** The landing page's headings, in their order on the page. */
const LANDING_HEADINGS = [
  { name: "Adopt, don't shop", level: 1 },
  { name: 'How It Works', level: 2 },
  { name: 'What We Offer', level: 2 },
  { name: 'PawHaven in Numbers', level: 2 },
  { name: 'Support Our Cause', level: 2 },
  { name: 'Our Ambassadors & Collaborators', level: 2 },
  { name: 'Get in Touch', level: 2 },
];
const SERVICES = [
  'Animal Training',
  'Pet Grooming',
  'Animal Rescue',
  'Pet Supplies',
  'Pet Vet',
  'Animal Adoption',
];
/** The seeded team (data/seed/team.json): three ambassadors, then three collaborators. */
const AMBASSADORS = ['Hira Qureshi', 'Dr. Farhan Malik', 'Zoya Siddiqui'];
const COLLABORATORS = ['Usman Tariq', 'Mehwish Anwar', 'Kamran Shah'];

let env: E2eApp;
const browsers: (Browser & { pageErrors: string[] })[] = [];

/** A fresh browser (its own session). `quiet`: this session's tips are already dismissed, so none shows. */
async function openPage(viewport: { width: number; height: number }, opts: { quiet?: boolean } = {}) {
  const browser = await launchBrowser();
  browsers.push(browser);
  if (opts.quiet) await dismissTips(browser.context);
  return browser.newPage(viewport);
}

const isApi = (r: Request, method: string, pathname: string) =>
  r.method() === method && new URL(r.url()).pathname === pathname;

/** Requests the page makes from now on to one API path. */
function watchRequests(page: Page, method: string, pathname: string) {
  const seen: Request[] = [];
  page.on('request', (r) => {
    if (isApi(r, method, pathname)) seen.push(r);
  });
  return seen;
}

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const statValues = (page: Page) => region(page, 'PawHaven in Numbers').locator('dd').allInnerTexts();
const teamCards = (scope: Page | Locator) => scope.getByTestId('team-card');
const card = (scope: Page | Locator, name: string) =>
  scope.getByRole('article', { name, exact: true }).and(scope.getByTestId('team-card'));
const tips = (page: Page) => page.getByRole('note');

async function headingTops(page: Page) {
  const tops: number[] = [];
  for (const h of LANDING_HEADINGS) {
    const heading = page.getByRole('heading', { name: h.name, level: h.level, exact: true });
    await heading.waitFor();
    const box = await heading.boundingBox();
    tops.push(box!.y + (await page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY)));
  }
  return tops;
}

async function screenshot(page: Page, name: string) {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: true });
}

/** A multipart POST with a token (an adoption ad carries an image); answers the ad's id. */
async function publishAd(token: string, name: string): Promise<string> {
  const form = new FormData();
  for (const [k, v] of Object.entries({
    name,
    age: '2',
    petType: 'Cat',
    location: 'Lahore',
    description: 'A gentle, litter-trained cat who loves sunny windows and quiet evenings.',
  }))
    form.append(k, v);
  form.append('image', new Blob([new Uint8Array(makePng(160, 120))], { type: 'image/png' }), 'cat.png');
  const res = await fetch(`${env.url}/api/adoptions`, {
    method: 'POST',
    headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`POST /api/adoptions answered ${res.status}`);
  return ((await res.json()) as { _id: string })._id;
}

beforeAll(async () => {
  env = await startE2eApp();
});

afterAll(async () => {
  for (const b of browsers) await b.close();
  await env?.stop();
});

describe('landing page', () => {
  it('shows the placeholders in the stats strip on an empty database', async () => {
    const page = await openPage(DESKTOP, { quiet: true });
    const stats = page.waitForResponse((r) => isApi(r.request(), 'GET', '/api/stats/landing'));
    await page.goto(`${env.url}/`);
    expect((await stats).status()).toBe(200);
    await expect.poll(() => statValues(page)).toEqual(['0k', '0k', '0k', '4+']);
    const labels = await region(page, 'PawHaven in Numbers').locator('dt').allInnerTexts();
    expect(labels.map((l) => l.split('\n')[0])).toEqual(['Adoption', 'Rescued', 'Clients', 'Services']);
  });

  it('falls back to the placeholders when the stats cannot be read', async () => {
    const page = await openPage(PHONE, { quiet: true });
    await page.route(
      (url) => url.pathname === '/api/stats/landing',
      (route: Route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
    );
    await page.goto(`${env.url}/`);
    await expect.poll(() => statValues(page), { timeout: 15_000 }).toEqual(['0k', '0k', '0k', '4+']);
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`has every section in order with live figures, at ${viewport.width} px`, async () => {
      if (viewport === DESKTOP) {
        // Two members (one a vet) and one adoption ad.
        const [owner] = await Promise.all([
          createVerifiedUser(env.url, 'landingowner'),
          createVerifiedUser(env.url, 'landingvet', { isVeterinarian: true }),
        ]);
        await publishAd(await apiToken(env.url, owner), 'Biscuit');
      }
      const page = await openPage(viewport, { quiet: true });
      await page.goto(`${env.url}/`);

      // The read model catches up with the writes above: reload until the figures are live.
      await expect
        .poll(
          async () => {
            const values = await statValues(page);
            const loaded = values.length === 4 && !values.includes('…');
            if (loaded && values.join() !== '0k,1,2,1') await page.reload();
            return values;
          },
          { timeout: 20_000, interval: 500 },
        )
        .toEqual(['0k', '1', '2', '1']);
      expect(await region(page, 'PawHaven in Numbers').locator('[data-live="true"]').count()).toBe(3);

      // Sections in their order, top to bottom.
      const tops = await headingTops(page);
      expect(tops).toEqual([...tops].sort((a, b) => a - b));
      expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);

      // How It Works: three steps; What We Offer: six services; Support: adopt, rescue, foster.
      const how = region(page, 'How It Works');
      expect(await how.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual([
        '1. Find your pet',
        '2. Schedule a visit',
        '3. Follow the adoption process',
      ]);
      expect(await region(page, 'What We Offer').getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(
        SERVICES,
      );
      const support = region(page, 'Support Our Cause');
      expect(await support.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual([
        'Adopt',
        'Rescue',
        'Foster',
      ]);
      // Our own pictures, with their size reserved and lazily loaded.
      const adoptImage = support.getByRole('img', { name: 'A house with a heart on its door' });
      expect(await adoptImage.getAttribute('loading')).toBe('lazy');
      expect(await adoptImage.getAttribute('width')).toBe('240');
      await adoptImage.scrollIntoViewIfNeeded();
      await expect.poll(() => naturalWidth(adoptImage)).toBeGreaterThan(0);

      // The contact block: Lahore, nationwide, 24/7 rescue support network, and the form.
      const contact = region(page, 'Get in Touch');
      for (const fact of ['Based in Lahore', 'Serving nationwide', '24/7 rescue support network'])
        await contact.getByText(fact, { exact: true }).waitFor();
      await contact.getByRole('form', { name: 'Contact form' }).waitFor();

      expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, `landing-${viewport.width}.png`);
    });
  }
});

describe('team', () => {
  it("shows the first three cards and 'See More Team Members' opens /team with the list in the navigation state", async () => {
    const page = await openPage(DESKTOP, { quiet: true });
    await page.goto(`${env.url}/`);
    const team = region(page, 'Our Ambassadors & Collaborators');
    await expect.poll(() => teamCards(team).count()).toBe(3);
    expect(await teamCards(team).getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(AMBASSADORS);

    // A portrait from /media/directory with its size set, lazily loaded, with alt text.
    const portrait = card(team, AMBASSADORS[0]!).getByRole('img', { name: `Portrait of ${AMBASSADORS[0]}` });
    expect(await portrait.getAttribute('width')).toBe('112');
    expect(await portrait.getAttribute('height')).toBe('112');
    expect(await portrait.getAttribute('loading')).toBe('lazy');
    expect(await portrait.getAttribute('src')).toMatch(/^\/media\/directory\/.+\.svg$/);
    await portrait.scrollIntoViewIfNeeded();
    await expect.poll(() => naturalWidth(portrait)).toBeGreaterThan(0);

    const teamFetches = watchRequests(page, 'GET', '/api/team');
    await team.getByRole('link', { name: 'See More Team Members' }).click();
    await waitForPath(page, '/team');
    await page.getByRole('heading', { name: 'Our Ambassadors & Collaborators', level: 1 }).waitFor();
    await expect.poll(() => teamCards(page).count()).toBe(6);
    expect(await teamCards(page).getByRole('heading', { level: 2 }).allInnerTexts()).toEqual([
      ...AMBASSADORS,
      ...COLLABORATORS,
    ]);
    // The list came with the navigation: /team did not ask for it.
    expect(teamFetches).toHaveLength(0);
    const state = await page.evaluate(
      () =>
        (globalThis as unknown as { history: { state: { usr?: { allMembers?: unknown[] } } } }).history.state,
    );
    expect(state.usr?.allMembers).toHaveLength(6);
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`/team opened directly fetches the list; badges and one open section, at ${viewport.width} px`, async () => {
      const page = await openPage(viewport, { quiet: true });
      const fetched = page.waitForResponse((r) => isApi(r.request(), 'GET', '/api/team'));
      await page.goto(`${env.url}/team`);
      expect((await fetched).status()).toBe(200);
      await expect.poll(() => teamCards(page).count()).toBe(6);

      // The verified badge: roles containing 'Ambassador' only.
      for (const name of AMBASSADORS)
        expect(await card(page, name).getByRole('img', { name: 'Verified ambassador' }).count(), name).toBe(
          1,
        );
      for (const name of COLLABORATORS)
        expect(await card(page, name).getByRole('img', { name: 'Verified ambassador' }).count(), name).toBe(
          0,
        );

      // At most one section open at a time.
      const hira = card(page, 'Hira Qureshi');
      const section = (label: string) => hira.getByRole('region', { name: `${label} of Hira Qureshi` });
      const button = (label: string) => hira.getByRole('button', { name: label, exact: true });
      const openSections = () => hira.getByRole('region').count();
      expect(await openSections()).toBe(0);
      await button('Education').click();
      await section('Education').getByText('BSc Zoology').waitFor();
      expect(await button('Education').getAttribute('aria-expanded')).toBe('true');
      expect(await openSections()).toBe(1);
      await button('Experience').click();
      await section('Experience').waitFor();
      await section('Education').waitFor({ state: 'hidden' });
      expect(await button('Education').getAttribute('aria-expanded')).toBe('false');
      expect(await openSections()).toBe(1);
      await button('Achievements').click();
      await section('Achievements').getByText('Over 100 successful adoptions').waitFor();
      expect(await openSections()).toBe(1);
      await button('Achievements').click();
      await section('Achievements').waitFor({ state: 'hidden' });
      expect(await openSections()).toBe(0);
      // Another card keeps its own state.
      await card(page, 'Usman Tariq').getByRole('button', { name: 'Education', exact: true }).click();
      await button('Experience').click();
      expect(await page.getByRole('region', { name: /^Education of / }).count()).toBe(1);

      expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, `team-${viewport.width}.png`);
    });
  }
});

describe('contact form', () => {
  for (const [where, viewport] of [
    ['/contactus', DESKTOP],
    ['/', PHONE],
  ] as const) {
    it(`${where} at ${viewport.width} px: invalid e-mail sends nothing; a send resets the form and flags success for 5 s`, async () => {
      const page = await openPage(viewport, { quiet: true });
      await page.goto(`${env.url}${where}`);
      const form = page.getByRole('form', { name: 'Contact form' });
      if (where === '/contactus') await page.getByRole('heading', { name: 'Contact Us', level: 1 }).waitFor();
      await form.scrollIntoViewIfNeeded();
      const sends = watchRequests(page, 'POST', '/api/contact');

      // Required fields.
      await form.getByRole('button', { name: 'Send Message' }).click();
      await form.getByText('Please enter your name.').waitFor();
      expect(await form.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');

      // The contact form's e-mail rule: text@text.text.
      await form.getByLabel('Name').fill('Ayesha Khan');
      await form.getByLabel('Email').fill('ayesha@mail');
      await form.getByLabel('Message').fill('Can I foster a kitten for a few weeks?');
      await form.getByRole('button', { name: 'Send Message' }).click();
      await form.getByText(CONTACT_MESSAGES.invalidEmail, { exact: true }).waitFor();
      expect(CONTACT_MESSAGES.invalidEmail).toBe('Please enter a valid email address.');
      await page.waitForTimeout(300);
      expect(sends).toHaveLength(0);

      // A failure keeps what was typed and says so: the server's text on 429, else the product's.
      await form.getByLabel('Email').fill('ayesha@example.pk');
      const tooMany = 'Too many messages from you. Please try again in a minute.';
      const refuse = (status: number, body: unknown) => (route: Route) =>
        route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
      const contactPath = (url: URL) => url.pathname === '/api/contact';
      await page.route(contactPath, refuse(429, { message: tooMany }));
      await form.getByRole('button', { name: 'Send Message' }).click();
      await form.getByRole('alert').filter({ hasText: tooMany }).waitFor();
      await page.unroute(contactPath);
      await page.route(contactPath, refuse(500, {}));
      await form.getByRole('button', { name: 'Send Message' }).click();
      await form.getByRole('alert').filter({ hasText: CONTACT_MESSAGES.failed }).waitFor();
      await page.unroute(contactPath);
      expect(await form.getByLabel('Name').inputValue()).toBe('Ayesha Khan');
      expect(await form.getByLabel('Message').inputValue()).toBe('Can I foster a kitten for a few weeks?');

      // The real send.
      sends.length = 0;
      const sent = page.waitForResponse((r) => isApi(r.request(), 'POST', '/api/contact'));
      await form.getByRole('button', { name: 'Send Message' }).click();
      const response = await sent;
      expect(response.status()).toBe(201);
      expect(((await response.json()) as { success: boolean }).success).toBe(true);
      expect(sends[0]!.postDataJSON()).toEqual({
        name: 'Ayesha Khan',
        email: 'ayesha@example.pk',
        message: 'Can I foster a kitten for a few weeks?',
      });
      const flag = form.getByRole('status').filter({ hasText: CONTACT_MESSAGES.sent });
      await flag.waitFor();
      const shownAt = Date.now();
      for (const label of ['Name', 'Email', 'Message'])
        expect(await form.getByLabel(label).inputValue()).toBe('');
      expect(await form.getByRole('alert').count()).toBe(0);
      await flag.waitFor({ state: 'detached', timeout: 8_000 });
      const shownFor = Date.now() - shownAt;
      expect(shownFor).toBeGreaterThan(4_000);
      expect(shownFor).toBeLessThan(7_000);
      expect(await horizontalOverflow(page)).toBe(0);
    });
  }
});

describe('tip popups', () => {
  const T0 = new Date('2025-03-01T09:00:00Z').getTime();

  /**
   * Loads a page of a fresh session under Playwright's fake clock and pauses it once the page is there (the page
   * needs running timers to load). Answers the paused time: the tips' timers started between T0 and then.
   */
  async function loadPaused(page: Page, url: string, ready: () => Promise<unknown>) {
    await page.goto(url);
    await ready();
    const at = (await page.evaluate(() => Date.now())) + 500;
    await page.clock.pauseAt(at);
    return at;
  }

  /** Reloads under the fake clock (it runs while the page loads) and pauses it again. */
  async function reloadPaused(page: Page) {
    await page.clock.resume();
    await page.reload();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 500);
  }

  /**
   * Moves the clock forward in half-second steps until `count` tips are shown (at most `limitMs`); answers the
   * clock's advance when they were.
   */
  async function advanceUntil(page: Page, count: number, limitMs: number) {
    for (let t = 0; t <= limitMs; t += 500) {
      if ((await tips(page).count()) >= count) return t;
      await page.clock.fastForward(500);
      await page.waitForTimeout(25);
    }
    await page.waitForTimeout(200);
    if ((await tips(page).count()) >= count) return limitMs;
    throw new Error(`${count} tip(s) not shown after ${limitMs} ms`);
  }

  async function cornerOf(tip: Locator, viewport: { width: number; height: number }) {
    const box = (await tip.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    const left = box.x < viewport.width / 4;
    const right = box.x + box.width > viewport.width - viewport.width / 4;
    const top = box.y < viewport.height / 2;
    const bottom = box.y + box.height > viewport.height - 40;
    if (left && bottom) return 'bottom-left';
    if (right && top) return 'top-right';
    return `elsewhere ${JSON.stringify(box)}`;
  }

  for (const viewport of [DESKTOP, PHONE]) {
    it(`two tips after 5–20 s at alternating corners, dismissal kept for the session, at ${viewport.width} px`, async () => {
      const page = await openPage(viewport);
      await page.clock.install({ time: T0 });
      const paused = await loadPaused(page, `${env.url}/`, () =>
        page.getByRole('heading', { name: 'What We Offer' }).waitFor(),
      );
      const loadedIn = paused - T0;

      // Not before 5 s after the page started (checked when the page loaded well before); the first by 20 s,
      // bottom-left.
      const start = Math.max(loadedIn, 4_900);
      await page.clock.fastForward(start - loadedIn);
      await page.waitForTimeout(200);
      if (loadedIn <= 4_500) expect(await tips(page).count()).toBe(0);
      const firstAfter = start + (await advanceUntil(page, 1, 20_000 - start + loadedIn));
      expect(firstAfter).toBeGreaterThanOrEqual(5_000);
      expect(firstAfter).toBeLessThanOrEqual(20_000 + loadedIn + 500);
      expect(await tips(page).count()).toBe(1);
      const first = tips(page).first();
      expect(await cornerOf(first, viewport)).toBe('bottom-left');
      const firstTitle = (await first.getAttribute('aria-labelledby'))!;

      // The second 5–20 s after the first appeared, top-right, below the header.
      const secondAfter = await advanceUntil(page, 2, 20_500);
      expect(secondAfter).toBeGreaterThanOrEqual(4_500);
      const second = tips(page).nth(1);
      expect(await cornerOf(second, viewport)).toBe('top-right');
      const header = (await page.getByRole('banner').boundingBox())!;
      expect((await second.boundingBox())!.y).toBeGreaterThanOrEqual(header.y + header.height);
      const secondTitle = (await second.getAttribute('aria-labelledby'))!;
      expect(firstTitle).not.toBe(secondTitle);
      // A title, a kind and useful text, and a named close button each.
      expect((await first.innerText()).length).toBeGreaterThan(60);
      await second.getByRole('button', { name: /^Dismiss tip: / }).waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, `tips-${viewport.width}.png`) });

      // They stay until dismissed.
      await page.clock.fastForward(60_000);
      await page.waitForTimeout(100);
      expect(await tips(page).count()).toBe(2);

      // Dismiss the first: it does not come back in this session.
      await first.getByRole('button', { name: /^Dismiss tip: / }).click();
      await expect.poll(() => tips(page).count()).toBe(1);
      const stored = JSON.parse((await sessionItem(page, TIP_STORAGE_KEY))!) as { dismissed: string[] };
      expect(stored.dismissed).toHaveLength(1);

      await reloadPaused(page);
      await page.clock.fastForward(3_500);
      await page.waitForTimeout(100);
      expect(await tips(page).count()).toBe(0);
      await advanceUntil(page, 1, 20_000);
      const again = tips(page).first();
      expect(await again.getAttribute('aria-labelledby')).toBe(secondTitle);
      expect(await cornerOf(again, viewport)).toBe('top-right');
      await page.clock.fastForward(60_000);
      await page.waitForTimeout(100);
      expect(await tips(page).count()).toBe(1);

      // Both dismissed: none for the rest of the session.
      await again.getByRole('button', { name: /^Dismiss tip: / }).click();
      await expect.poll(() => tips(page).count()).toBe(0);
      await reloadPaused(page);
      await page.clock.fastForward(60_000);
      await page.waitForTimeout(300);
      expect(await tips(page).count()).toBe(0);
      expect(await horizontalOverflow(page)).toBe(0);
    });
  }

  it('never shows a tip on /chat; they wait for the next page', async () => {
    const page = await openPage(DESKTOP);
    await page.clock.install({ time: T0 });
    await loadPaused(page, `${env.url}/chat`, () => page.getByTestId('chat-signin-required').waitFor());
    // Both tips come due meanwhile (runFor fires the second timer, set when the first fired, too).
    await page.clock.runFor(45_000);
    await page.waitForTimeout(300);
    expect(await tips(page).count()).toBe(0);
    expect(pathnameOf(page)).toBe('/chat');

    // Leaving the chat (in the app) shows the tips that came due meanwhile.
    await page.clock.resume();
    await page.getByRole('link', { name: 'Home', exact: true }).first().click();
    await waitForPath(page, '/');
    await expect.poll(() => tips(page).count()).toBe(2);
  });
});

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('the footer', () => {
  it('shows no social icon while no account is configured (SOCIAL_*_URL unset)', async () => {
    const page = await openPage(DESKTOP, { quiet: true });
    // The settings are read once on every page (GET /api/config); the footer shows what they say.
    const config = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/config');
    await page.goto(`${env.url}/`);
    expect((await (await config).json()).social).toEqual({
      facebook: null,
      instagram: null,
      x: null,
      youtube: null,
    });
    const footer = page.getByRole('contentinfo');
    await footer.getByText(/All rights reserved/).waitFor();
    expect(await footer.getByRole('link', { name: /^PawHaven on / }).count()).toBe(0);
    const hrefs = await footer.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs.filter((h) => /facebook|instagram|x\.com|youtube/.test(h ?? ''))).toEqual([]);
  });
});

describe('a public profile', () => {
  it("offers Message to a signed-in user on another's profile only, never to a visitor", async () => {
    const [author, reader] = await Promise.all([
      createVerifiedUser(env.url, 'profileauthor'),
      createVerifiedUser(env.url, 'profilereader'),
    ]);
    const profile = `${env.url}/profile/public/${author.id}`;
    const message = (page: Page) => page.getByRole('button', { name: 'Message', exact: true });

    const visitor = await openPage(PHONE, { quiet: true });
    await visitor.goto(profile);
    await visitor.getByRole('heading', { name: author.username }).waitFor();
    await visitor.getByRole('tab', { name: /Adoption Ads/ }).waitFor();
    expect(await message(visitor).count()).toBe(0);

    const signedIn = await openPage(DESKTOP, { quiet: true });
    await signInInBrowser(signedIn, env.url, reader);
    await signedIn.goto(profile);
    await signedIn.getByRole('heading', { name: author.username }).waitFor();
    await message(signedIn).waitFor();
    // Their own profile: no Message either.
    await signedIn.goto(`${env.url}/profile/public/${reader.id}`);
    await signedIn.getByRole('heading', { name: reader.username }).waitFor();
    await signedIn.getByRole('tab', { name: /Adoption Ads/ }).waitFor();
    expect(await message(signedIn).count()).toBe(0);
  });
});

describe('the adoption ad form', () => {
  it('says what is missing and refuses a picture of 2MB or more as its hint says, keeping what was typed', async () => {
    const user = await createVerifiedUser(env.url, 'adformuser');
    const page = await openPage(PHONE, { quiet: true });
    await signInInBrowser(page, env.url, user);
    await page.goto(`${env.url}/create-adoption`);
    const form = page.getByRole('form', { name: 'Create adoption ad' });
    await form.getByText('PNG, JPG or JPEG (max 2MB)').waitFor();
    await form.getByLabel('Pet Name').fill('Badal');
    await form.getByLabel('Description').fill('A calm grey cat who likes window sills.');
    // A picture of 3 MB: refused on the spot, in words; nothing typed is lost.
    await form.getByLabel('Pet image').setInputFiles({
      name: 'big.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(3 * 1024 * 1024),
    });
    await form.getByText('Image size should be less than 2MB').waitFor();
    expect(await form.getByLabel('Pet Name').inputValue()).toBe('Badal');
    expect(await form.getByLabel('Description').inputValue()).toBe('A calm grey cat who likes window sills.');
    // Sent without a pet type: 'Pet type is required', not the list of types.
    await form.getByRole('button', { name: 'Post for Adoption' }).click();
    await form.getByText('Pet type is required').waitFor();
    expect(await form.getByText(/Pet type must be one of/).count()).toBe(0);
    expect(await form.getByLabel('Pet Name').inputValue()).toBe('Badal');
    expect(await horizontalOverflow(page)).toBe(0);
  });
});

describe('/notifications', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`offers Delete All and Mark All Read only when they have something to do; the toast covers neither the title nor the Real-time chip, at ${viewport.width} px`, async () => {
      const [owner, adopter] = await Promise.all([
        createVerifiedUser(env.url, 'notified'),
        createVerifiedUser(env.url, 'requester'),
      ]);
      const adId = await publishAd((await apiToken(env.url, owner))!, 'Noor');
      const request = await apiCall(
        env.url,
        'POST',
        `/api/adoptions/${adId}/request`,
        (await apiToken(env.url, adopter))!,
        {
          name: adopter.username,
          email: adopter.email,
          phone: '+92 300 1234567',
          message: 'We would love to give Noor a home.',
        },
      );
      expect(request.status).toBe(201);

      const page = await openPage(viewport, { quiet: true });
      await signInInBrowser(page, env.url, owner);
      await page.goto(`${env.url}/notifications`);
      const chip = page.getByRole('status').filter({ hasText: NOTIFICATION_MESSAGES.realtime });
      await chip.waitFor();
      const markAll = page.getByRole('button', { name: NOTIFICATION_MESSAGES.markAllRead });
      const deleteAll = page.getByRole('button', { name: NOTIFICATION_MESSAGES.deleteAll });
      // The request's notification arrives (reload until the projection has it): both actions have work.
      await expect
        .poll(
          async () => {
            if (await deleteAll.isEnabled()) return true;
            await page.reload();
            await chip.waitFor();
            return deleteAll.isEnabled();
          },
          { timeout: 20_000, interval: 1000 },
        )
        .toBe(true);
      expect(await markAll.isEnabled()).toBe(true);

      await deleteAll.click();
      await page.getByRole('dialog').getByRole('button', { name: NOTIFICATION_MESSAGES.deleteAll }).click();
      const toast = page.getByRole('status').filter({ hasText: NOTIFICATION_MESSAGES.allDeleted });
      await toast.waitFor();
      await page.getByText(NOTIFICATION_MESSAGES.empty).waitFor();
      const heading = page.getByRole('heading', { level: 1, name: NOTIFICATION_MESSAGES.title });
      const toastBox = (await toast.boundingBox())!;
      expect(overlaps(toastBox, (await chip.boundingBox())!)).toBe(false);
      expect(overlaps(toastBox, (await heading.boundingBox())!)).toBe(false);
      expect(overlaps(toastBox, (await deleteAll.boundingBox())!)).toBe(false);
      await screenshot(page, `notifications-toast-${viewport.width}.png`);
      // Nothing left: neither action is offered.
      expect(await deleteAll.isDisabled()).toBe(true);
      expect(await markAll.isDisabled()).toBe(true);
      // Still so after a reload (an empty list read from the server).
      await page.reload();
      await page.getByText(NOTIFICATION_MESSAGES.empty).waitFor();
      expect(await deleteAll.isDisabled()).toBe(true);
      expect(await markAll.isDisabled()).toBe(true);
      expect(await horizontalOverflow(page)).toBe(0);
    });
  }
});

describe('the pages', () => {
  it('raised no script errors', () => {
    expect(browsers.flatMap((b) => b.pageErrors)).toEqual([]);
  });
});

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2eApp, uniqueName, type E2eApp } from './support/app';
import { apiCall, apiToken, horizontalOverflow, openUntil } from './support/community';
import { launchBrowser, waitForPath, type Browser, type PageGlobals } from './support/browser';
import { makePng } from './support/png';
import {
  adminAdHistory,
  adminToken,
  createVerifiedUser,
  formatTimeline,
  openListingCard,
  signInInBrowser,
  type TestUser,
} from './support/adoption';

/**
 * Adoption in real browsers against the whole product: A publishes an ad with a photo, B asks to adopt with a proof
 * image, A accepts, B's history shows it, C finds the pet adopted; then the administrator's audit timeline of the ad.
 * One browser per user, so each has its own cookies and storage.
 */

const SCREENSHOTS = path.resolve(import.meta.dirname, '../test-results');
const PET = uniqueName('Biscuit');
const DESCRIPTION =
  'Biscuit is a gentle two-year-old who loves long walks along the canal, naps in the sun and belly rubs. ' +
  'House-trained, calm with visitors and looking for a patient family in Lahore.';

let env: E2eApp;
type UserBrowser = Browser & { pageErrors: string[] };
const browsers: UserBrowser[] = [];
let owner: TestUser;
let adopter: TestUser;
let third: TestUser;
let adId = '';

const toast = (page: Page, text: string) =>
  page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: text });

async function browserFor(user: TestUser): Promise<Page> {
  const browser = await launchBrowser();
  browsers.push(browser);
  const page = await browser.newPage();
  await signInInBrowser(page, env.url, user);
  return page;
}

beforeAll(async () => {
  env = await startE2eApp();
  [owner, adopter, third] = await Promise.all([
    createVerifiedUser(env.url, 'owner'),
    createVerifiedUser(env.url, 'adopter'),
    createVerifiedUser(env.url, 'third'),
  ]);
});

afterAll(async () => {
  for (const b of browsers) await b.close();
  await env?.stop();
});

describe('an adoption from ad to forever home', () => {
  let ownerPage: Page;
  let adopterPage: Page;
  let thirdPage: Page;

  it('A publishes an ad with a photo on /create-adoption and lands on /my-adoptions', async () => {
    ownerPage = await browserFor(owner);
    const page = ownerPage;
    await page.goto(`${env.url}/create-adoption`);
    await page.getByRole('heading', { name: 'Create Adoption Ad' }).waitFor();

    // Missing fields are explained at the fields; nothing is sent.
    await page.getByRole('button', { name: 'Post for Adoption' }).click();
    await page.getByText('Name is required').waitFor();
    await page.getByText('Please select an image of the pet').waitFor();

    await page.getByLabel('Pet Name').fill(PET);
    await page.getByLabel('Pet Type').selectOption('Dog');
    await page.getByRole('textbox', { name: 'Age', exact: true }).fill('2');
    await page.getByLabel('Breed (optional)').fill('Labrador mix');
    await page.getByLabel('Location').fill('Lahore');
    await page.getByLabel('Gender').selectOption('Male');
    await page.getByLabel('Vaccinated', { exact: true }).check();
    await page.getByLabel('Description').fill(DESCRIPTION);
    await page
      .getByLabel('Pet image')
      .setInputFiles({ name: 'biscuit.png', mimeType: 'image/png', buffer: makePng(160, 120) });
    await page.getByRole('img', { name: 'Preview of biscuit.png' }).waitFor();

    const created = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/adoptions',
    );
    await page.getByRole('button', { name: 'Post for Adoption' }).click();
    const res = await created;
    expect(res.status()).toBe(201);
    adId = ((await res.json()) as { _id: string })._id;
    expect(adId).toMatch(/^[0-9a-f-]{36}$/);

    await waitForPath(page, '/my-adoptions');
    await page.getByText('Adoption post created successfully!').waitFor();
    const item = page.getByRole('listitem', { name: PET });
    await item.getByText('No adoption requests yet.').waitFor();
    await item.getByText('Available', { exact: true }).waitFor();
    const photo = item.getByRole('img', { name: `Photo of ${PET}` });
    await expect
      .poll(() => photo.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);

    // The success text goes after 5 seconds.
    await page.getByText('Adoption post created successfully!').waitFor({ state: 'detached', timeout: 8000 });

    // The owner's own ads are not in the owner's listing.
    await page.goto(`${env.url}/adoption`);
    await page.getByText('No adoption posts available.').waitFor();
    expect(await page.getByRole('article', { name: PET }).count()).toBe(0);
  });

  it('a visitor sees the ad but is asked to log in to request it', async () => {
    const visitorBrowser = await launchBrowser();
    browsers.push(visitorBrowser);
    const page = await visitorBrowser.newPage();
    const card = await openListingCard(page, env.url, PET);
    await card.getByRole('button', { name: 'Request Adoption' }).click();
    const dialog = page.getByRole('dialog', { name: `Request to adopt ${PET}` });
    await dialog.getByText('You need to be logged in to request adoption.').waitFor();
    expect(await dialog.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/signin');
    await dialog.getByRole('button', { name: 'Close' }).click();
    // Chat sends visitors to sign in.
    await card.getByRole('button', { name: 'Chat' }).click();
    await waitForPath(page, '/signin');
    await page.close();
  });

  it('B requests the pet with a proof image through the listing modal', async () => {
    adopterPage = await browserFor(adopter);
    const page = adopterPage;
    const card = await openListingCard(page, env.url, PET);

    // The card: type, breed, age, location, attributes, a 3-line description with 'Read more...', the poster.
    await card.getByText('Labrador mix · 2 yrs').waitFor();
    await card.getByText('Lahore', { exact: true }).waitFor();
    await card.getByText('Vaccinated', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Read more...' }).click();
    await card.getByRole('button', { name: 'Show less' }).waitFor();
    expect(await card.getByRole('link', { name: owner.username }).getAttribute('href')).toBe(
      `/profile/public/${owner.id}`,
    );
    // Chat opens the conversation with the owner, about this ad.
    expect(await card.getByRole('link', { name: 'Chat', exact: true }).getAttribute('href')).toMatch(
      new RegExp(`^/chat/${owner.id}\\?adId=[0-9a-f-]{36}$`),
    );

    await card.getByRole('button', { name: 'View Details' }).click();
    const details = page.getByRole('dialog', { name: `Pet Details: ${PET}` });
    await details.getByText(DESCRIPTION).waitFor();
    await details.getByRole('button', { name: 'Close pet details' }).click();

    await card.getByRole('button', { name: 'Request Adoption' }).click();
    const dialog = page.getByRole('dialog', { name: `Request to adopt ${PET}` });
    expect(await dialog.getByLabel('Your Name').inputValue()).toBe(adopter.username);
    expect(await dialog.getByLabel('Email').inputValue()).toBe(adopter.email);

    // The form's texts, one at a time; nothing typed is lost.
    await dialog.getByRole('button', { name: 'Send Request' }).click();
    await dialog.getByText('All fields are required').waitFor();
    await dialog.getByLabel('Phone').fill('12345');
    await dialog
      .getByLabel('Message')
      .fill('We have a garden and work from home. Our old dog passed last year.');
    await dialog.getByRole('button', { name: 'Send Request' }).click();
    await dialog.getByText('Please enter a valid phone number').waitFor();
    await dialog.getByLabel('Phone').fill('+92 300 1234567');
    await dialog
      .getByLabel('Proof image (optional)')
      .setInputFiles({ name: 'our-garden.png', mimeType: 'image/png', buffer: makePng(120, 90) });
    await dialog.getByRole('img', { name: 'Preview of our-garden.png' }).waitFor();
    await dialog.getByRole('button', { name: 'Send Request' }).click();

    await toast(page, 'Adoption request sent').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await card.getByText('Adoption request pending review').waitFor();
    await card.getByRole('button', { name: 'Withdraw request' }).waitFor();
    expect(await card.getByRole('button', { name: 'Request Adoption' }).count()).toBe(0);
  });

  it('A sees the request with its proof image in /my-adoptions and accepts it', async () => {
    const page = ownerPage;
    await page.goto(`${env.url}/my-adoptions`);
    const item = page.getByRole('listitem', { name: PET });
    const request = item.getByRole('listitem', { name: adopter.username });
    await request.waitFor();
    await request.getByText('Pending').waitFor();
    await request.getByText('+92 300 1234567').waitFor();
    await request.getByText(adopter.email).waitFor();
    await request.getByText('We have a garden and work from home.', { exact: false }).waitFor();

    await request.getByRole('button', { name: `View proof image from ${adopter.username}` }).click();
    const proof = page.getByRole('dialog', { name: `Proof image from ${adopter.username}` });
    const large = proof.getByRole('img', { name: /full size/ });
    await expect
      .poll(() => large.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    await proof.getByRole('button', { name: 'Close proof image' }).click();

    await request.getByRole('button', { name: 'Accept', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: `Accept ${adopter.username}'s request?` });
    await confirm.getByRole('button', { name: 'Accept request' }).click();
    await toast(page, 'Request accepted successfully').waitFor();
    await request.getByText('Accepted', { exact: true }).waitFor();
    await item.getByText('Adopted', { exact: true }).waitFor();
    await item.getByText('This pet has found a forever home!').waitFor();
    expect(await item.getByRole('button', { name: 'Accept', exact: true }).count()).toBe(0);
    expect(await item.getByRole('button', { name: 'Reject', exact: true }).count()).toBe(0);
  });

  it("B's adoption history shows the request accepted", async () => {
    const page = adopterPage;
    await page.goto(`${env.url}/adoptionhistory`);
    await page.getByRole('heading', { name: 'Adoption History', level: 1 }).waitFor();
    const entry = page.getByRole('listitem', { name: PET });
    await entry.getByText('Accepted', { exact: true }).waitFor();
    await entry.getByText('Dog', { exact: true }).waitFor();
    const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
    expect(await entry.getByText(today).count()).toBeGreaterThanOrEqual(1);
    expect(await entry.getByRole('button', { name: 'Withdraw request' }).count()).toBe(0);
  });

  it('C finds the pet adopted on the listing and cannot request it', async () => {
    const page = (thirdPage = await browserFor(third));
    const card = await openListingCard(page, env.url, PET);
    await card.getByText('This pet has found a forever home!').waitFor();
    expect(await card.getByRole('button', { name: 'Request Adoption' }).count()).toBe(0);

    // Nothing to show in an empty history.
    await page.goto(`${env.url}/adoptionhistory`);
    await page.getByText('No Adoption History').waitFor();
  });

  it('renders /adoption at 360 px without horizontal overflow', async () => {
    const page = thirdPage;
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto(`${env.url}/adoption`);
    await page.getByRole('heading', { name: 'Find Your Perfect Companion' }).waitFor();
    await page.getByRole('article', { name: PET }).waitFor();
    await page.getByRole('button', { name: 'Create Adoption Ad' }).click();
    await page.getByLabel('Pet Name').waitFor();
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'adoption-360.png'), fullPage: true });
    const { scrollWidth, clientWidth } = await page.evaluate(() => {
      const { documentElement } = (globalThis as unknown as PageGlobals).document;
      return { scrollWidth: documentElement.scrollWidth, clientWidth: documentElement.clientWidth };
    });
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  it("prints the ad's audit timeline as the administrator", async () => {
    const credentials = env.app.adminCredentials;
    expect(credentials, 'this start created the admin account').not.toBeNull();
    const token = await adminToken(env.url, credentials!);
    const history = await adminAdHistory(env.url, token, adId, (h) =>
      h.timeline.some((e) => e.eventType === 'PetAdopted'),
    );
    console.log(formatTimeline(history));

    const types = history.timeline.map((e) => e.eventType);
    expect(types).toEqual(
      expect.arrayContaining([
        'AdoptionAdPublished',
        'AdoptionRequested',
        'AdoptionRequestAccepted',
        'PetAdopted',
      ]),
    );
    const positions = history.timeline.map((e) => BigInt(e.position));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const accepted = history.timeline.find((e) => e.eventType === 'AdoptionRequestAccepted')!;
    expect([accepted.fromStatus, accepted.toStatus, accepted.actor?.username]).toEqual([
      'pending',
      'accepted',
      owner.username,
    ]);
    expect(history.ad?.status).toBe('adopted');
  });

  it('keeps the lists live: requests reach the owner, answers reach the requesters, without a reload', async () => {
    const LIVE = uniqueName('Pepper');
    const ownerToken = await apiToken(env.url, owner);
    const created = await createAdByApi(ownerToken, { name: LIVE, petType: 'Cat' });

    // The owner on /my-adoptions and, in a second browser, on the profile's My Adoptions view (the ad with its
    // requests).
    const mine = ownerPage;
    await openUntil(mine, `${env.url}/my-adoptions`, () => mine.getByRole('listitem', { name: LIVE }));
    const profileTab = await browserFor(owner);
    await profileTab.goto(`${env.url}/profile?view=myadoptions`);
    const ownerViews = [mine, profileTab];
    for (const page of ownerViews)
      await page
        .getByRole('listitem', { name: LIVE })
        .getByText('No adoption requests yet.')
        .waitFor()
        .catch(async (e: unknown) => {
          throw new Error(
            `${String(e)} at ${page.url()}: ${(await page.locator('main').innerText()).slice(0, 800)}`,
          );
        });
    // The requesters on their histories.
    for (const page of [adopterPage, thirdPage]) {
      await page.goto(`${env.url}/adoptionhistory`);
      await page.getByRole('heading', { name: 'Adoption History', level: 1 }).waitFor();
    }
    await thirdPage.getByText('No Adoption History').waitFor();
    const pages = [...ownerViews, adopterPage, thirdPage];
    // A page that reloads loses this mark.
    for (const page of pages)
      await page.evaluate(() => ((globalThis as Record<string, unknown>).stayed = true));

    for (const [user, phone] of [
      [adopter, '+92 300 7654321'],
      [third, '+92 301 7654321'],
    ] as const) {
      const res = await apiCall(
        env.url,
        'POST',
        `/api/adoptions/${created}/request`,
        await apiToken(env.url, user),
        {
          name: user.username,
          email: user.email,
          phone,
          message: 'A quiet home with a sunny window.',
        },
      );
      expect(res.status).toBe(201);
    }
    for (const page of ownerViews) {
      const item = page.getByRole('listitem', { name: LIVE });
      for (const user of [adopter, third])
        await item.getByRole('listitem', { name: user.username }).getByText('Pending').waitFor();
    }
    for (const page of [adopterPage, thirdPage])
      await page.getByRole('listitem', { name: LIVE }).getByText('Pending', { exact: true }).waitFor();

    // The owner rejects C and accepts B on /my-adoptions: each requester's history shows it.
    const item = mine.getByRole('listitem', { name: LIVE });
    await item
      .getByRole('listitem', { name: third.username })
      .getByRole('button', { name: 'Reject', exact: true })
      .click();
    await thirdPage.getByRole('listitem', { name: LIVE }).getByText('Rejected', { exact: true }).waitFor();
    await item
      .getByRole('listitem', { name: adopter.username })
      .getByRole('button', { name: 'Accept', exact: true })
      .click();
    await mine
      .getByRole('dialog', { name: `Accept ${adopter.username}'s request?` })
      .getByRole('button', { name: 'Accept request' })
      .click();
    await adopterPage.getByRole('listitem', { name: LIVE }).getByText('Accepted', { exact: true }).waitFor();
    // The owner's other browser follows too.
    const other = profileTab.getByRole('listitem', { name: LIVE });
    await other
      .getByRole('listitem', { name: adopter.username })
      .getByText('Accepted', { exact: true })
      .waitFor();
    await other.getByText('This pet has found a forever home!').waitFor();

    for (const page of pages)
      expect(await page.evaluate(() => (globalThis as Record<string, unknown>).stayed)).toBe(true);
  });

  it('lines up the cards of a row and keeps each card’s buttons on one line at 1280 and 360 px', async () => {
    // Cards of different lengths next to each other (B's ads, so C sees Request Adoption and Chat on each).
    const adopterToken = await apiToken(env.url, adopter);
    await createAdByApi(adopterToken, {
      name: uniqueName('Tall'),
      description: DESCRIPTION + ' ' + DESCRIPTION,
      breed: 'A very long breed name for a mixed rescue',
      vaccinated: 'true',
      spayedNeutered: 'true',
      goodWithChildren: 'true',
      goodWithDogs: 'true',
      goodWithCats: 'true',
    });
    await createAdByApi(adopterToken, { name: uniqueName('Mid'), description: 'Calm and sweet.' });
    await createAdByApi(adopterToken, { name: uniqueName('Short'), description: 'Sleepy.' });

    const page = thirdPage;
    await mkdir(SCREENSHOTS, { recursive: true });
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await openUntil(page, `${env.url}/adoption`, () => page.getByRole('article', { name: /^Short/ }));
      await page.getByRole('article').first().waitFor();
      const cards = await measureCards(page);
      expect(cards.length, `cards at ${width} px`).toBeGreaterThanOrEqual(4);
      // One line of buttons on every card: every button's middle at the same height.
      for (const card of cards)
        expect(
          Math.max(...card.buttonMiddles) - Math.min(...card.buttonMiddles),
          `${card.name} at ${width} px: ${card.buttonMiddles.join(', ')}`,
        ).toBeLessThan(4);
      // Cards of one row: the same height, their footers (poster line and buttons) at the same height.
      const rows = new Map<number, typeof cards>();
      for (const card of cards)
        rows.set(Math.round(card.top), [...(rows.get(Math.round(card.top)) ?? []), card]);
      if (width === 1280) expect(Math.max(...[...rows.values()].map((r) => r.length))).toBe(3);
      for (const row of rows.values()) {
        const spread = (pick: (c: (typeof cards)[number]) => number) =>
          Math.max(...row.map(pick)) - Math.min(...row.map(pick));
        const names = row.map((c) => c.name).join(', ');
        expect(
          spread((c) => c.bottom),
          `card bottoms of ${names}`,
        ).toBeLessThan(1);
        expect(
          spread((c) => c.posterTop),
          `poster lines of ${names}`,
        ).toBeLessThan(1);
        expect(
          spread((c) => c.buttonMiddles[0]!),
          `buttons of ${names}`,
        ).toBeLessThan(1);
      }
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: path.join(SCREENSHOTS, `adoption-listing-${width}.png`),
        fullPage: true,
      });
    }
    await page.close();
  });

  it('raised no uncaught errors in any page', () => {
    expect(browsers.flatMap((b) => b.pageErrors)).toEqual([]);
  });
});

/** Publishes an ad through the API (multipart, with a PNG) and answers its id. */
async function createAdByApi(token: string, fields: Record<string, string>): Promise<string> {
  const form = new FormData();
  const all = {
    age: '1',
    location: 'Lahore',
    petType: 'Dog',
    description: 'Playful and kind.',
    ...fields,
  };
  for (const [key, value] of Object.entries(all)) form.set(key, value);
  form.set('image', new Blob([new Uint8Array(makePng(120, 90))], { type: 'image/png' }), 'pet.png');
  const res = await fetch(`${env.url}/api/adoptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

type CardBox = { name: string; top: number; bottom: number; posterTop: number; buttonMiddles: number[] };

/**
 * Where each listing card, its 'Posted by' line and its buttons are: the buttons are the children of the row
 * holding View Details.
 */
function measureCards(page: Page): Promise<CardBox[]> {
  return page.evaluate(() => {
    type Box = { top: number; bottom: number; height: number };
    type El = {
      children: ArrayLike<El>;
      parentElement: El | null;
      textContent: string | null;
      getAttribute(name: string): string | null;
      getBoundingClientRect(): Box;
      querySelectorAll(selector: string): ArrayLike<El>;
    };
    const { document } = globalThis as unknown as {
      document: { querySelectorAll(s: string): ArrayLike<El> };
    };
    return Array.from(document.querySelectorAll('main article')).map((card) => {
      const all = Array.from(card.querySelectorAll('button, a, span'));
      const label = (el: El) => el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '';
      const details = all.find((el) => label(el) === 'View Details' && el.parentElement);
      const poster = all.find((el) => (el.textContent ?? '').trim().startsWith('Posted by'));
      const rect = card.getBoundingClientRect();
      const buttons = details
        ? Array.from(details.parentElement!.children)
            .map((el) => el.getBoundingClientRect())
            .filter((r) => r.height > 0)
        : [];
      return {
        name: card.querySelectorAll('h3')[0]?.textContent ?? '',
        top: rect.top,
        bottom: rect.bottom,
        posterTop: poster?.getBoundingClientRect().top ?? NaN,
        buttonMiddles: buttons.map((r) => (r.top + r.bottom) / 2),
      };
    });
  });
}

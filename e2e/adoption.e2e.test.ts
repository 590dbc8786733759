import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2eApp, uniqueName, type E2eApp } from './support/app';
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
 * Adoption in real browsers against the whole product (spec 000 §2–§9): A publishes an ad with a photo, B asks to
 * adopt with a proof image, A accepts, B's history shows it, C finds the pet adopted; then the administrator's
 * audit timeline of the ad. One browser per user, so each has its own cookies and storage.
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

    // The spec's texts, one at a time; nothing typed is lost.
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

  it('raised no uncaught errors in any page', () => {
    expect(browsers.flatMap((b) => b.pageErrors)).toEqual([]);
  });
});

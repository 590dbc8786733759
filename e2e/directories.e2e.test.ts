import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClinicDto, FaqDto, NgoDto } from '@pawhaven/contracts';
import { startE2eApp, type E2eApp } from './support/app';
import { launchBrowser, type Browser } from './support/browser';
import { horizontalOverflow, naturalWidth } from './support/community';

/**
 * The NGO and clinic directories and the FAQ in a real browser, at 1280 px and 360 px: the page titles, search with and
 * without matches (the fixed no-match texts) kept in the address, a direct link with ?q= answered by the server's
 * search, the details modals (mission, services, tel:/mailto: links; the clinic's veterinarians with their
 * specialization), the pictures, the FAQ's one-open rule and its error text, and no sideways scrolling on a phone.
 */

const NGO_TITLE = "Animal Welfare NGO's";
const CLINICS_TITLE = 'Veterinary Clinics & Healthcare';
const NGO_NO_MATCH = 'No NGOs found. Please try a different search.';
const CLINIC_NO_MATCH = 'No clinics found. Please try a different search.';
const NO_SUCH = 'zzqx no such place';

let env: E2eApp;
let browser: Browser & { pageErrors: string[] };
let ngos: NgoDto[] = [];
let clinics: ClinicDto[] = [];
let faqs: FaqDto[] = [];

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${env.url}${path}`, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
  return (await res.json()) as T;
}

/** The seed reaches the read model a moment after the start: wait until the list is there. */
async function seeded<T>(path: string): Promise<T[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const list = await getJson<T[]>(path);
    if (list.length > 0 || Date.now() > deadline) return list;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The server's answer to a search, for comparing with what the page shows. */
const serverSearch = <T>(path: string, q: string) => getJson<T[]>(`${path}?q=${encodeURIComponent(q)}`);

const cards = (page: Page) => page.getByRole('article');
/** A titled part of a details modal (a section named by its heading). */
const section = (dialog: Locator, name: string) => dialog.getByRole('region', { name, exact: true });
const cardNames = (page: Page) => cards(page).getByRole('heading', { level: 2 }).allInnerTexts();
const sorted = (names: string[]) => [...names].sort((a, b) => a.localeCompare(b));
const queryOf = (page: Page) => new URL(page.url()).searchParams.get('q');

/** A word of a text, to search with (the longest one, in upper case: the search ignores case). */
const wordOf = (text: string) =>
  text
    .split(/[^A-Za-z]+/)
    .sort((a, b) => b.length - a.length)[0]!
    .toUpperCase();

/** A card's picture: size reserved, alt text, loaded (lazily below the first row, at once in it). */
async function expectPicture(img: Locator, loading: 'lazy' | 'eager') {
  expect(await img.getAttribute('loading')).toBe(loading);
  expect(Number(await img.getAttribute('width'))).toBeGreaterThan(0);
  expect(Number(await img.getAttribute('height'))).toBeGreaterThan(0);
  expect((await img.getAttribute('alt'))?.trim()).toBeTruthy();
  await img.scrollIntoViewIfNeeded();
  await expect.poll(() => naturalWidth(img)).toBeGreaterThan(0);
}

async function expectNoOverflow(page: Page, width: number) {
  if (width <= 400) expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
}

beforeAll(async () => {
  env = await startE2eApp();
  browser = await launchBrowser();
  [ngos, clinics, faqs] = await Promise.all([
    seeded<NgoDto>('/api/ngos'),
    seeded<ClinicDto>('/api/clinics'),
    seeded<FaqDto>('/api/faqRoutes'),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await env?.stop();
});

describe('the seeded directories', () => {
  it('lists 13 NGOs, 14 clinics and some questions', () => {
    expect(ngos).toHaveLength(13);
    expect(clinics).toHaveLength(14);
    expect(faqs.length).toBeGreaterThan(0);
  });
});

describe.each([
  { label: 'laptop', width: 1280, height: 800 },
  { label: 'phone', width: 360, height: 740 },
])('directories and FAQ at $width px ($label)', ({ width, height }) => {
  const viewport = { width, height };

  it('NGO directory: cards, search with and without matches, the address, the details modal', async () => {
    const page = await browser.newPage(viewport);
    await page.goto(`${env.url}/ngo`);
    await page.getByRole('heading', { name: NGO_TITLE, level: 1 }).waitFor();
    await expect.poll(() => cards(page).count()).toBe(ngos.length);
    expect(sorted(await cardNames(page))).toEqual(sorted(ngos.map((n) => n.name)));
    await expectPicture(cards(page).first().getByRole('img'), 'eager');
    await expectPicture(cards(page).last().getByRole('img'), 'lazy');
    await expectNoOverflow(page, width);

    // A word of the first NGO's description, in another case: the page shows the server's answer for it.
    const box = page.getByRole('searchbox', { name: 'Search NGOs' });
    const term = wordOf(ngos[0]!.description);
    const expected = await serverSearch<NgoDto>('/api/ngos', term);
    expect(expected.map((n) => n.name)).toContain(ngos[0]!.name);
    await box.fill(term);
    await expect.poll(() => cards(page).count()).toBe(expected.length);
    expect(sorted(await cardNames(page))).toEqual(sorted(expected.map((n) => n.name)));
    await expect.poll(() => queryOf(page)).toBe(term);

    // By name too.
    const nameTerm = ngos[1]!.name.slice(0, 6).toLowerCase();
    const byName = await serverSearch<NgoDto>('/api/ngos', nameTerm);
    await box.fill(nameTerm);
    await expect.poll(async () => sorted(await cardNames(page))).toEqual(sorted(byName.map((n) => n.name)));

    // Nothing matches: the no-match text, no cards.
    await box.fill(NO_SUCH);
    await page.getByText(NGO_NO_MATCH, { exact: true }).waitFor();
    expect(await cards(page).count()).toBe(0);
    expect(await serverSearch<NgoDto>('/api/ngos', NO_SUCH)).toEqual([]);
    await expectNoOverflow(page, width);

    // An empty search shows all again and leaves the address.
    await box.fill('');
    await expect.poll(() => cards(page).count()).toBe(ngos.length);
    await expect.poll(() => queryOf(page)).toBeNull();

    // The details of one NGO.
    const ngo = ngos[ngos.length - 1]!;
    const card = page.getByRole('article', { name: ngo.name, exact: true });
    const open = card.getByRole('button', { name: 'View NGO Details' });
    await open.click();
    const dialog = page.getByRole('dialog', { name: ngo.name, exact: true });
    await dialog.waitFor();
    await dialog.getByRole('heading', { name: ngo.name, exact: true }).waitFor();
    await section(dialog, 'Mission').getByText(ngo.mission, { exact: true }).waitFor();
    const services = section(dialog, 'Services Offered');
    for (const service of ngo.services) await services.getByText(service, { exact: true }).waitFor();
    const contact = section(dialog, 'Contact');
    const phone = contact.getByRole('link', { name: ngo.contact.phone, exact: true });
    expect(await phone.getAttribute('href')).toMatch(/^tel:\+?\d+$/);
    expect((await phone.getAttribute('href'))!.replace(/\D/g, '')).toBe(ngo.contact.phone.replace(/\D/g, ''));
    expect(
      await contact.getByRole('link', { name: ngo.contact.email, exact: true }).getAttribute('href'),
    ).toBe(`mailto:${ngo.contact.email}`);
    await expectNoOverflow(page, width);
    // Closed with its close button, focus goes back to the button that opened it.
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => open.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    // And with Escape.
    await open.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    expect(browser.pageErrors).toEqual([]);
    await page.close();
  });

  it('NGO directory: a direct link with ?q= asks the server and fills the box', async () => {
    const page = await browser.newPage(viewport);
    const term = wordOf(ngos[2]!.name);
    const expected = await serverSearch<NgoDto>('/api/ngos', term);
    const asked = page.waitForResponse((r) => {
      const url = new URL(r.url());
      return url.pathname === '/api/ngos' && url.searchParams.get('q')?.toLowerCase() === term.toLowerCase();
    });
    await page.goto(`${env.url}/ngo?q=${encodeURIComponent(term)}`);
    expect((await asked).status()).toBe(200);
    await page.getByRole('heading', { name: NGO_TITLE, level: 1 }).waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search NGOs' }).inputValue()).toBe(term);
    await expect.poll(async () => sorted(await cardNames(page))).toEqual(sorted(expected.map((n) => n.name)));

    // A link that matches nothing shows the no-match text straight away.
    await page.goto(`${env.url}/ngo?q=${encodeURIComponent(NO_SUCH)}`);
    await page.getByText(NGO_NO_MATCH, { exact: true }).waitFor();
    // Shortening the search in the box widens it again.
    await page.getByRole('searchbox', { name: 'Search NGOs' }).fill('');
    await expect.poll(() => cards(page).count()).toBe(ngos.length);
    await page.close();
  });

  it('clinics directory: search by name or location, the no-match text, a direct link, the details modal', async () => {
    const page = await browser.newPage(viewport);
    await page.goto(`${env.url}/clinics`);
    await page.getByRole('heading', { name: CLINICS_TITLE, level: 1 }).waitFor();
    await expect.poll(() => cards(page).count()).toBe(clinics.length);
    expect(sorted(await cardNames(page))).toEqual(sorted(clinics.map((c) => c.name)));
    const first = page.getByRole('article', { name: clinics[0]!.name, exact: true });
    await first.getByText(clinics[0]!.location).waitFor();
    await expectPicture(first.getByRole('img'), 'eager');
    await expectPicture(cards(page).last().getByRole('img'), 'lazy');
    await expectNoOverflow(page, width);

    const box = page.getByRole('searchbox', { name: 'Search clinics' });
    // By location.
    const place = wordOf(clinics[0]!.location);
    const atPlace = await serverSearch<ClinicDto>('/api/clinics', place);
    expect(atPlace.map((c) => c.name)).toContain(clinics[0]!.name);
    await box.fill(place);
    await expect.poll(async () => sorted(await cardNames(page))).toEqual(sorted(atPlace.map((c) => c.name)));
    await expect.poll(() => queryOf(page)).toBe(place);
    // By name.
    const nameTerm = clinics[3]!.name.slice(0, 7);
    const byName = await serverSearch<ClinicDto>('/api/clinics', nameTerm);
    await box.fill(nameTerm);
    await expect.poll(async () => sorted(await cardNames(page))).toEqual(sorted(byName.map((c) => c.name)));
    // Nothing.
    await box.fill(NO_SUCH);
    await page.getByText(CLINIC_NO_MATCH, { exact: true }).waitFor();
    expect(await cards(page).count()).toBe(0);

    // A direct link.
    const asked = page.waitForResponse((r) => {
      const url = new URL(r.url());
      return (
        url.pathname === '/api/clinics' && url.searchParams.get('q')?.toLowerCase() === place.toLowerCase()
      );
    });
    await page.goto(`${env.url}/clinics?q=${encodeURIComponent(place)}`);
    expect((await asked).status()).toBe(200);
    expect(await box.inputValue()).toBe(place);
    await expect.poll(async () => sorted(await cardNames(page))).toEqual(sorted(atPlace.map((c) => c.name)));

    // The details of a clinic with an e-mail address if there is one.
    const clinic = atPlace.find((c) => c.contact.email) ?? atPlace[0]!;
    const open = page
      .getByRole('article', { name: clinic.name, exact: true })
      .getByRole('button', { name: 'View Clinic Details' });
    await open.click();
    const dialog = page.getByRole('dialog', { name: clinic.name, exact: true });
    await dialog.waitFor();
    await dialog.getByRole('heading', { name: clinic.name, exact: true }).waitFor();
    await dialog.getByText(clinic.location).first().waitFor();
    const services = section(dialog, 'Services');
    for (const service of clinic.services_offered)
      await services.getByText(service, { exact: true }).waitFor();
    const vets = section(dialog, 'Veterinarians');
    expect(clinic.veterinarians.length).toBeGreaterThan(0);
    expect(await vets.getByRole('listitem').count()).toBe(clinic.veterinarians.length);
    for (const vet of clinic.veterinarians) {
      const item = vets.getByRole('listitem').filter({ hasText: vet.name }).first();
      await item.getByText(vet.specialization, { exact: true }).waitFor();
    }
    const contact = section(dialog, 'Contact');
    const phone = contact.getByRole('link', { name: clinic.contact.phone, exact: true });
    expect((await phone.getAttribute('href'))!.replace(/\D/g, '')).toBe(
      clinic.contact.phone.replace(/\D/g, ''),
    );
    expect(await phone.getAttribute('href')).toMatch(/^tel:\+?\d+$/);
    if (clinic.contact.email)
      expect(
        await contact.getByRole('link', { name: clinic.contact.email, exact: true }).getAttribute('href'),
      ).toBe(`mailto:${clinic.contact.email}`);
    await expectNoOverflow(page, width);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    expect(browser.pageErrors).toEqual([]);
    await page.close();
  });

  it('FAQ: one answer open at a time; a failed load reads "Error: Failed to fetch FAQs"', async () => {
    expect(faqs.length).toBeGreaterThan(1);
    const page = await browser.newPage(viewport);
    await page.goto(`${env.url}/faq`);
    await page.getByRole('heading', { name: 'Frequently Asked Questions', level: 1 }).waitFor();
    const main = page.getByRole('main');
    const question = (faq: FaqDto) => main.getByRole('button', { name: faq.question, exact: true });
    const answer = (faq: FaqDto) => page.getByText(faq.answer, { exact: true });
    for (const faq of faqs) await question(faq).waitFor();
    expect(await main.locator('[aria-expanded="true"]').count()).toBe(0);

    const [a, b] = [faqs[0]!, faqs[1]!];
    await question(a).click();
    await answer(a).waitFor({ state: 'visible' });
    expect(await question(a).getAttribute('aria-expanded')).toBe('true');

    // Opening another closes the first.
    await question(b).click();
    await answer(b).waitFor({ state: 'visible' });
    await answer(a).waitFor({ state: 'hidden' });
    expect(await question(a).getAttribute('aria-expanded')).toBe('false');
    expect(await main.locator('[aria-expanded="true"]').count()).toBe(1);

    // Clicking the open one closes it.
    await question(b).click();
    await answer(b).waitFor({ state: 'hidden' });
    expect(await main.locator('[aria-expanded="true"]').count()).toBe(0);
    await expectNoOverflow(page, width);
    await page.close();

    // The server fails: the FAQ's error text.
    const failing = await browser.newPage(viewport);
    await failing.route(
      (url) => url.pathname === '/api/faqRoutes',
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }),
    );
    await failing.goto(`${env.url}/faq`);
    await failing.getByRole('heading', { name: 'Frequently Asked Questions', level: 1 }).waitFor();
    await failing.getByText('Error: Failed to fetch FAQs', { exact: true }).waitFor();
    await expectNoOverflow(failing, width);
    await failing.close();
  });
});

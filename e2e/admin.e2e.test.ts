import { mkdir } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ADMIN_MESSAGES } from '@pawhaven/contracts';
import { startE2eApp, uniqueName, type E2eApp } from './support/app';
import { launchBrowser, pathnameOf, waitForPath, type Browser, type PageGlobals } from './support/browser';
import {
  adminAdHistory,
  adminToken,
  createVerifiedUser,
  signInInBrowser,
  type AdHistory,
  type TestUser,
} from './support/adoption';
import { apiCall, apiToken, horizontalOverflow, openUntil } from './support/community';
import { makePng } from './support/png';

/**
 * The administrator's dashboard in a real browser (issue 10): find a user by e-mail and open their adoption requests,
 * open an ad's audit history and see every status change, delete a post and a user with the browser confirmations,
 * rebuild a projection and watch the progress reach 100 % while another browser keeps reading /adoption; the phone
 * width; and a non-admin sent away from the dashboard.
 */

const RESULTS = path.resolve(import.meta.dirname, '../test-results');
const PET = uniqueName('Pumpkin');
const CAPTION = `Rescue story ${uniqueName('cap')}`;
const KEPT_CAPTION = `Vaccination day ${uniqueName('cap')}`;
const COMMENT = `So glad to see this ${uniqueName('c')}`;
const WAIT = 15_000;
/**
 * The admin's deletions per rate-limit window in this file's app: the deletion tests use two, then one uses up the
 * rest to see a refused deletion (so it runs after every other deletion).
 */
const MODERATION_LIMIT = 10;

let env: E2eApp;
type UserBrowser = Browser & { pageErrors: string[] };
const browsers: UserBrowser[] = [];
let owner: TestUser;
let chosen: TestUser;
let other: TestUser;
let doomed: TestUser;
let adminPage: Page;
let adId = '';
let postId = '';
let keptPostId = '';

/** A multipart POST with a user's token (ads, requests and posts may carry an image); answers the body. */
async function postForm(
  pathname: string,
  token: string,
  fields: Record<string, string>,
  image?: { field: string; name: string },
): Promise<Record<string, unknown>> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (image)
    form.append(
      image.field,
      new Blob([new Uint8Array(makePng(160, 120))], { type: 'image/png' }),
      image.name,
    );
  const res = await fetch(`${env.url}${pathname}`, {
    method: 'POST',
    headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (res.status !== 201)
    throw new Error(`POST ${pathname} answered ${res.status}: ${String(body?.message)}`);
  return body!;
}

async function newBrowser(): Promise<UserBrowser> {
  const browser = await launchBrowser();
  browsers.push(browser);
  return browser;
}

/** The admin signs in on /signin and lands in the dashboard. */
async function signInAsAdmin(page: Page) {
  const admin = env.app.adminCredentials!;
  await page.goto(`${env.url}/signin`);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await waitForPath(page, '/admin-dashboard', WAIT);
}

/** Accepts (or dismisses) the next browser confirmation and answers its text. */
function nextConfirm(page: Page, accept: boolean): Promise<string> {
  return new Promise((resolve) => {
    page.once('dialog', (dialog: Dialog) => {
      resolve(dialog.message());
      void (accept ? dialog.accept() : dialog.dismiss());
    });
  });
}

/** From now on, notes whether the list's rows ever stop holding `text`; answers a function that tells. */
async function watchRowLeaving(page: Page, text: string): Promise<() => Promise<boolean>> {
  type Window = {
    rowLeft?: boolean;
    document: { body: unknown; querySelector(s: string): { textContent: string | null } | null };
    MutationObserver: new (seen: () => void) => { observe(target: unknown, options: object): void };
  };
  await page.evaluate((t) => {
    const w = globalThis as unknown as Window;
    w.rowLeft = false;
    new w.MutationObserver(() => {
      if (!w.document.querySelector('tbody')?.textContent?.includes(t)) w.rowLeft = true;
    }).observe(w.document.body, { childList: true, subtree: true, characterData: true });
  }, text);
  return () => page.evaluate(() => (globalThis as unknown as Window).rowLeft === true);
}

const sidebarItem = (page: Page, label: string) => page.getByRole('menuitem', { name: label, exact: true });

/** A list row (react-admin's Datagrid rows) holding `text`. */
const row = (page: Page, text: string) => page.locator('tbody tr').filter({ hasText: text });

beforeAll(async () => {
  env = await startE2eApp({ RATE_LIMIT_MODERATION: MODERATION_LIMIT });
  expect(env.app.adminCredentials, 'this start created the admin account').not.toBeNull();
  [owner, chosen, other, doomed] = await Promise.all([
    createVerifiedUser(env.url, 'owner'),
    createVerifiedUser(env.url, 'chosen'),
    createVerifiedUser(env.url, 'other'),
    createVerifiedUser(env.url, 'doomed'),
  ]);
  const [ownerToken, chosenToken, otherToken] = await Promise.all(
    [owner, chosen, other].map((u) => apiToken(env.url, u)),
  );

  // An ad with two requests; the owner accepts one, which rejects the other and adopts the pet.
  const ad = await postForm(
    '/api/adoptions',
    ownerToken!,
    {
      name: PET,
      age: '1',
      petType: 'Cat',
      location: 'Karachi',
      description: 'Pumpkin is a playful ginger cat who loves sunny windows and gentle company.',
    },
    { field: 'image', name: 'pumpkin.png' },
  );
  adId = String(ad._id);
  const request = await postForm(
    `/api/adoptions/${adId}/request`,
    chosenToken!,
    {
      name: chosen.username,
      email: chosen.email,
      phone: '+92 300 1234567',
      message: 'We have a quiet flat with a balcony net and a lot of love for a ginger cat.',
    },
    { field: 'petHistoryImage', name: 'home.png' },
  );
  await postForm(`/api/adoptions/${adId}/request`, otherToken!, {
    name: other.username,
    email: other.email,
    phone: '+92 300 7654321',
    message: 'Pumpkin would have a garden and two children to play with.',
  });
  const requestId = String((request.request as { _id: string })._id);
  const accepted = await apiCall(env.url, 'PUT', `/api/adoptions/requests/${requestId}`, ownerToken!, {
    status: 'accepted',
  });
  expect(accepted.status).toBe(200);

  const post = await postForm(
    '/api/posts',
    ownerToken!,
    { caption: CAPTION },
    { field: 'image', name: 'p.png' },
  );
  postId = String(post._id);
  const kept = await postForm(
    '/api/posts',
    ownerToken!,
    { caption: KEPT_CAPTION },
    { field: 'image', name: 'k.png' },
  );
  keptPostId = String(kept._id);
  const comment = await apiCall(env.url, 'POST', `/api/comments/${keptPostId}`, otherToken!, {
    content: COMMENT,
  });
  expect(comment.status).toBe(201);

  adminPage = await (await newBrowser()).newPage();
  adminPage.setDefaultTimeout(WAIT);
  await signInAsAdmin(adminPage);
});

afterAll(async () => {
  for (const b of browsers) await b.close();
  await env?.stop();
});

describe('the admin dashboard', () => {
  it("shows the dashboard's header and sidebar, and the overview with its charts", async () => {
    const page = adminPage;
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.getByTestId('admin-identity').filter({ hasText: /\S/ }).waitFor();
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();
    for (const label of [
      'Dashboard',
      'Manage Users',
      'Show Adoptions',
      'Show Adoption Requests',
      'Show Posts',
      'Show Post Comments',
      'Events',
      'Projections',
    ])
      await sidebarItem(page, label).waitFor();
    await page.getByRole('region', { name: ADMIN_MESSAGES.userDistribution }).waitFor();
    await page.getByRole('region', { name: 'Sign-ups per week' }).waitFor();
    await page.getByRole('region', { name: 'Adoption ads' }).waitFor();
    await mkdir(RESULTS, { recursive: true });
    await page.screenshot({ path: path.join(RESULTS, 'admin-overview.png'), fullPage: true });
  });

  it('finds a user by e-mail and opens their adoption requests', async () => {
    const page = adminPage;
    await sidebarItem(page, 'Manage Users').click();
    await waitForPath(page, '/admin-dashboard/manage-users');
    await page.getByRole('tab', { name: /^Regular Users \(\d+\)$/ }).click();
    await page.getByPlaceholder(ADMIN_MESSAGES.searchUsers).fill(chosen.email.toUpperCase());
    // The search runs on the server, case-insensitively: only the chosen user is left.
    await row(page, chosen.email).waitFor();
    await expect.poll(() => page.locator('tbody tr').count(), { timeout: WAIT }).toBe(1);
    await page.screenshot({ path: path.join(RESULTS, 'admin-users.png') });

    await page.getByRole('link', { name: `Show requests of ${chosen.username}` }).click();
    await waitForPath(page, `/admin-dashboard/adoption-requests/user/${chosen.id}`);
    await page.getByRole('heading', { name: ADMIN_MESSAGES.requestsForUser(chosen.username) }).waitFor();
    await page.getByRole('link', { name: ADMIN_MESSAGES.backToUsers }).waitFor();
    const request = row(page, PET);
    await request.waitFor();
    await request.getByText('accepted', { exact: true }).waitFor();
    await page.screenshot({ path: path.join(RESULTS, 'admin-requests.png') });
    // Its pet history image opens a large view with Close.
    await request.getByRole('button', { name: /^View image/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  it("opens the ad's history from the request row and sees every status change", async () => {
    const page = adminPage;
    await row(page, PET).getByRole('link', { name: 'History' }).click();
    await waitForPath(page, `/admin-dashboard/adoptions/${adId}/show`);
    const token = await adminToken(env.url, env.app.adminCredentials!);
    const history: AdHistory = await adminAdHistory(env.url, token, adId, (h) =>
      h.timeline.some((e) => e.toStatus === 'adopted'),
    );
    // Created, two requests, one accepted, the other rejected, the pet adopted: at least these changes.
    expect(history.timeline.length).toBeGreaterThanOrEqual(5);
    for (const status of ['available', 'pending', 'accepted', 'rejected', 'adopted'])
      expect(history.timeline.some((e) => e.toStatus === status)).toBe(true);

    await page.getByRole('heading', { name: `History of ${PET}` }).waitFor();
    const entries = page.getByTestId('audit-entry');
    await expect.poll(() => entries.count(), { timeout: WAIT }).toBe(history.timeline.length);
    for (const [i, e] of history.timeline.entries()) {
      const cells = entries.nth(i);
      await cells.getByText(e.position, { exact: true }).waitFor();
      await cells.getByText(`${e.fromStatus ?? '∅'} → ${e.toStatus ?? '∅'}`).waitFor();
    }
    await page.screenshot({ path: path.join(RESULTS, 'admin-history.png'), fullPage: true });
  });

  it('opens every sub-route of the dashboard with its title, rows or empty text', async () => {
    const page = adminPage;
    const base = `${env.url}/admin-dashboard`;
    const visit = async (route: string, title: string, text: string) => {
      await openUntil(page, `${base}/${route}`, () =>
        page.getByRole('heading', { name: title, exact: true }),
      );
      await page.getByText(text).first().waitFor();
    };
    await visit('adoptions', ADMIN_MESSAGES.allAdoptions, PET);
    // The age as the site writes it: '1 yr', not '1 yrs'.
    await row(page, PET).getByText('1 yr', { exact: true }).waitFor();
    await visit(`adoptions/user/${owner.id}`, ADMIN_MESSAGES.userAdoptions, PET);
    await visit(`adoptions/user/${chosen.id}`, ADMIN_MESSAGES.userAdoptions, ADMIN_MESSAGES.noUserAdoptions);
    await visit('adoption-requests', 'All Adoption Requests', other.email);
    await visit(`adoption-requests/user/${other.id}`, ADMIN_MESSAGES.requestsForUser(other.username), PET);
    await row(page, PET).getByText('rejected', { exact: true }).waitFor();
    await visit('posts', ADMIN_MESSAGES.allPosts, KEPT_CAPTION);
    await visit('comments', ADMIN_MESSAGES.allComments, COMMENT);
    await visit(`comments/user/${other.id}`, ADMIN_MESSAGES.userComments, COMMENT);
    await visit(`comments/post/${keptPostId}`, ADMIN_MESSAGES.postComments, COMMENT);
    // A user's posts expand to their comments inline.
    await visit(`posts/user/${owner.id}`, ADMIN_MESSAGES.userPosts, KEPT_CAPTION);
    await row(page, KEPT_CAPTION).getByText(KEPT_CAPTION).click();
    await page.getByText(COMMENT).waitFor();
    // The event browser: the ad's stream and its events with data and metadata.
    await visit('streams', 'Events', adId);
    await row(page, adId).first().getByRole('link', { name: 'Events' }).click();
    await page.getByText('AdoptionRequestAccepted').first().waitFor();
    await page.getByText('AdoptionRequestAccepted').first().click();
    await page.getByText('Metadata', { exact: true }).first().waitFor();
    await mkdir(RESULTS, { recursive: true });
    await page.screenshot({ path: path.join(RESULTS, 'admin-events.png'), fullPage: true });
  });

  it('deletes a post only after the confirmation', async () => {
    const page = adminPage;
    await sidebarItem(page, 'Show Posts').click();
    await waitForPath(page, '/admin-dashboard/posts');
    await page.getByRole('heading', { name: ADMIN_MESSAGES.allPosts }).waitFor();
    const post = row(page, CAPTION);
    await post.waitFor();

    // Cancelled: nothing happens.
    const cancelled = nextConfirm(page, false);
    await post.getByRole('button', { name: 'Delete' }).click();
    expect(await cancelled).toBe(ADMIN_MESSAGES.confirmDeletePost);
    await post.waitFor();

    const confirmed = nextConfirm(page, true);
    await post.getByRole('button', { name: 'Delete' }).click();
    expect(await confirmed).toBe(ADMIN_MESSAGES.confirmDeletePost);
    await post.waitFor({ state: 'detached' });
    expect((await apiCall(env.url, 'GET', `/api/posts/${postId}`, null)).status).toBe(404);
  });

  it('deletes a user and all their data after the confirmation', async () => {
    const page = adminPage;
    await sidebarItem(page, 'Manage Users').click();
    await page.getByRole('tab', { name: /^Regular Users \(\d+\)$/ }).click();
    await page.getByPlaceholder(ADMIN_MESSAGES.searchUsers).fill(doomed.email);
    const user = row(page, doomed.email);
    await user.waitFor();
    const confirmed = nextConfirm(page, true);
    await user.getByRole('button', { name: 'Delete' }).click();
    expect(await confirmed).toBe(ADMIN_MESSAGES.confirmDeleteUser);
    await page.getByText(ADMIN_MESSAGES.noUsers).waitFor();
  });

  it('keeps the row and says why in an alert when the server refuses a deletion', async () => {
    const page = adminPage;
    await page.getByPlaceholder(ADMIN_MESSAGES.searchUsers).fill(chosen.email);
    const user = row(page, chosen.email);
    await user.waitFor();
    // The admin's deletions for this window are used up (on ids that do not exist): the next one answers 429.
    const token = await adminToken(env.url, env.app.adminCredentials!);
    let status = 0;
    for (let i = 0; i <= MODERATION_LIMIT && status !== 429; i++)
      status = (await apiCall(env.url, 'DELETE', `/api/admin/user/${randomUUID()}`, token)).status;
    expect(status).toBe(429);

    const rowLeft = await watchRowLeaving(page, chosen.email);
    const dialogs: string[] = [];
    const answer = (dialog: Dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    };
    page.on('dialog', answer);
    onTestFinished(() => void page.off('dialog', answer));
    await user.getByRole('button', { name: 'Delete' }).click();
    // The confirmation, then the alert naming the failure and the reason.
    await expect.poll(() => dialogs.length, { timeout: WAIT }).toBe(2);
    expect(dialogs).toEqual([
      ADMIN_MESSAGES.confirmDeleteUser,
      `${ADMIN_MESSAGES.deleteUserFailed}: Too many attempts. Please wait a few minutes and try again.`,
    ]);
    // The row never left the list, while the request ran or after it failed.
    await user.getByRole('button', { name: 'Delete' }).and(page.locator(':enabled')).waitFor();
    expect(await rowLeft()).toBe(false);
    expect(pathnameOf(page)).toBe('/admin-dashboard/manage-users');
    expect((await apiCall(env.url, 'GET', `/api/admin/users/${chosen.id}`, token)).status).toBe(200);
  });

  it('rebuilds a projection and shows the progress reaching 100 % while /adoption keeps serving', async () => {
    const page = adminPage;
    // A second browser, a regular user, reads the listing during the rebuild.
    const reader = await (await newBrowser()).newPage();
    await signInInBrowser(reader, env.url, other);

    await sidebarItem(page, 'Projections').click();
    await waitForPath(page, '/admin-dashboard/projections');
    const rows = page.getByTestId('projection-row');
    await rows.first().waitFor();
    const name = (await rows.first().getAttribute('data-name'))!;
    // The progress is pushed over the socket: the page never asks for it.
    const polled: string[] = [];
    const onRequest = (r: { method(): string; url(): string }) => {
      if (r.method() === 'GET' && new URL(r.url()).pathname === '/api/admin/projections/rebuild')
        polled.push(r.url());
    };
    page.on('request', onRequest);
    await page.getByRole('button', { name: `Rebuild ${name}` }).click();

    const keepReading = (async () => {
      for (let i = 0; i < 3; i++) {
        const res = await reader.goto(`${env.url}/adoption`);
        expect(res?.status()).toBe(200);
        await reader.getByRole('heading', { level: 1 }).first().waitFor();
      }
    })();
    await page
      .getByTestId('rebuild-percent')
      .filter({ hasText: /^100 %$/ })
      .waitFor({ timeout: 60_000 });
    await page.getByText(/^Rebuilt:/).waitFor();
    page.off('request', onRequest);
    expect(polled).toEqual([]);
    await page.screenshot({ path: path.join(RESULTS, 'admin-projections.png'), fullPage: true });
    await keepReading;
  });

  it('refuses a second rebuild while one runs with a clear message, then rebuilds all', async () => {
    const page = adminPage;
    await page.getByRole('button', { name: 'Rebuild all' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Rebuild started/ })
      .waitFor();
    // Rebuilding every read model takes seconds; a second request meanwhile is refused (409).
    await page.getByRole('button', { name: 'Rebuild all' }).click();
    await page.getByRole('alert').filter({ hasText: ADMIN_MESSAGES.rebuildRunning }).waitFor();
    await page.getByText(/^Rebuilt: all projections/).waitFor({ timeout: 60_000 });
    await page
      .getByTestId('rebuild-percent')
      .filter({ hasText: /^100 %$/ })
      .waitFor();
  });

  it('works on a 360 px phone screen', async () => {
    const page = await browsers[0]!.newPage({ width: 360, height: 740 });
    page.setDefaultTimeout(WAIT);
    await openUntil(page, `${env.url}/admin-dashboard/manage-users`, () =>
      page.getByRole('tab', { name: /^Veterinarians \(\d+\)$/ }),
    );
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();
    // The admin's name or e-mail still shows in the header.
    const identity = page.getByTestId('admin-identity');
    await identity.filter({ hasText: /\S/ }).waitFor();
    expect((await identity.boundingBox())!.width).toBeGreaterThan(30);
    expect(await horizontalOverflow(page)).toBe(0);
    // The sidebar is a drawer behind the menu button.
    await page
      .getByRole('button', { name: /open menu|close menu|menu/i })
      .first()
      .click();
    await sidebarItem(page, 'Show Adoptions').click();
    await waitForPath(page, '/admin-dashboard/adoptions');
    await page.getByRole('heading', { name: ADMIN_MESSAGES.allAdoptions }).waitFor();
    await row(page, PET).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await mkdir(RESULTS, { recursive: true });
    await page.screenshot({ path: path.join(RESULTS, 'admin-360.png'), fullPage: true });
    await page.close();
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 360, height: 740 },
  ]) {
    it(`keeps e-mails on one line, cut with an ellipsis, the whole address in the title, at ${viewport.width} px`, async () => {
      // An address longer than any column has room for at 360 px.
      const long = await createVerifiedUser(env.url, 'longaddressfortables');
      const page = await browsers[0]!.newPage(viewport);
      page.setDefaultTimeout(WAIT);
      // Closed whatever happens: a page left open would keep the admin's session alive for the tests after.
      onTestFinished(() => page.close());
      await openUntil(page, `${env.url}/admin-dashboard/manage-users`, () =>
        page.getByRole('tab', { name: /^Regular Users \(\d+\)$/ }),
      );
      await page.getByRole('tab', { name: /^Regular Users \(\d+\)$/ }).click();
      await row(page, long.email).waitFor();
      const emails = page.locator('tbody').getByTestId('email');
      expect(await emails.count()).toBeGreaterThanOrEqual(4);
      const cells = await emails.evaluateAll((nodes) =>
        nodes.map((n) => {
          const el = n as unknown as {
            textContent: string;
            title: string;
            clientWidth: number;
            scrollWidth: number;
            getBoundingClientRect(): { height: number };
          };
          const style = (
            globalThis as unknown as {
              getComputedStyle(e: unknown): { lineHeight: string; textOverflow: string; whiteSpace: string };
            }
          ).getComputedStyle(n);
          return {
            text: el.textContent,
            title: el.title,
            height: el.getBoundingClientRect().height,
            lineHeight: parseFloat(style.lineHeight),
            cut: el.scrollWidth > el.clientWidth,
            ellipsis: style.textOverflow === 'ellipsis' && style.whiteSpace === 'nowrap',
          };
        }),
      );
      for (const cell of cells) {
        // One line, never broken inside the address; the whole address on hover.
        expect(cell.height, cell.text).toBeLessThan(cell.lineHeight * 1.5);
        expect(cell.title).toBe(cell.text);
        expect(cell.ellipsis).toBe(true);
      }
      const longCell = cells.find((c) => c.text === long.email)!;
      expect(longCell.cut).toBe(viewport.width === 360);
      expect(await horizontalOverflow(page)).toBe(0);
      // The table scrolls sideways on a phone: show the e-mail column.
      await row(page, long.email).getByTestId('email').scrollIntoViewIfNeeded();
      await mkdir(RESULTS, { recursive: true });
      await page.screenshot({
        path: path.join(RESULTS, `admin-users-${viewport.width}.png`),
        fullPage: true,
      });
    });

    it(`labels the sign-ups chart's axis with a few short, separate dates, at ${viewport.width} px`, async () => {
      const page = await browsers[0]!.newPage(viewport);
      page.setDefaultTimeout(WAIT);
      onTestFinished(() => page.close());
      await openUntil(page, `${env.url}/admin-dashboard`, () =>
        page.getByRole('region', { name: 'Sign-ups per week' }),
      );
      const chart = page.getByRole('region', { name: 'Sign-ups per week' });
      const ticks = chart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
      await ticks.first().waitFor();
      const labels = await ticks.allTextContents();
      // Twelve weeks: at most six labels on a wide chart, four on a phone's; each '3 Nov'.
      expect(labels.length).toBeGreaterThanOrEqual(3);
      expect(labels.length).toBeLessThanOrEqual(viewport.width === 360 ? 4 : 6);
      for (const label of labels) expect(label).toMatch(/^\d{1,2} [A-Z][a-z]{2}$/);
      // Every label whole inside the chart and clear of its neighbour by at least a space of 12 px.
      const svg = (await chart.locator('svg.recharts-surface').first().boundingBox())!;
      const boxes = (await ticks.evaluateAll((nodes) =>
        nodes.map((n) =>
          (
            n as unknown as { getBoundingClientRect(): { left: number; right: number } }
          ).getBoundingClientRect(),
        ),
      )) as { left: number; right: number }[];
      boxes.sort((a, b) => a.left - b.left);
      expect(boxes[0]!.left).toBeGreaterThanOrEqual(svg.x);
      expect(boxes.at(-1)!.right).toBeLessThanOrEqual(svg.x + svg.width);
      for (let i = 1; i < boxes.length; i++)
        expect(boxes[i]!.left - boxes[i - 1]!.right).toBeGreaterThanOrEqual(12);
      expect(await horizontalOverflow(page)).toBe(0);
      await mkdir(RESULTS, { recursive: true });
      await chart.screenshot({ path: path.join(RESULTS, `admin-signups-chart-${viewport.width}.png`) });
    });
  }

  it('clears the session and goes to /signin when the admin API refuses the credentials', async () => {
    const page = adminPage;
    // The session ends elsewhere (signed out on the server): the stored token is refused from now on.
    const token = await page.evaluate(() =>
      (globalThis as unknown as PageGlobals).localStorage.getItem('token'),
    );
    expect(token).toBeTruthy();
    expect((await apiCall(env.url, 'POST', '/api/auth/signout', token)).status).toBe(200);
    // A list never loaded before (not in the 5-minute cache) asks the server: 401, renewal refused.
    await page.goto(`${env.url}/admin-dashboard/comments/user/${chosen.id}`);
    await waitForPath(page, '/signin', WAIT);
    const stored = await page.evaluate(() => {
      const { localStorage, sessionStorage } = globalThis as unknown as PageGlobals;
      return [localStorage.getItem('token'), sessionStorage.getItem('token'), localStorage.getItem('user')];
    });
    expect(stored).toEqual([null, null, null]);
  });

  it('sends a non-admin who enters the dashboard to /', async () => {
    const page = await (await newBrowser()).newPage();
    await signInInBrowser(page, env.url, owner);
    await page.goto(`${env.url}/admin-dashboard/manage-users`);
    await waitForPath(page, '/');
    expect(pathnameOf(page)).toBe('/');
  });

  it('raised no uncaught errors in any page', () => {
    expect(browsers.flatMap((b) => b.pageErrors)).toEqual([]);
  });
});

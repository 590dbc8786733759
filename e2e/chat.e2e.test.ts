import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2eApp, uniqueName, type E2eApp } from './support/app';
import {
  adminToken,
  createVerifiedUser,
  openListingCard,
  signInInBrowser,
  type TestUser,
} from './support/adoption';
import { launchBrowser, pathnameOf, waitForPath, type Browser } from './support/browser';
import { apiCall, apiToken, horizontalOverflow } from './support/community';
import { makePng } from './support/png';

/**
 * Chat and notifications in two real browsers against the whole product (issue 8): A opens a chat from B's
 * adoption ad, B sees the conversation arrive live, typing shows and goes, A's ticks reach 'read'; A's like and
 * adoption request raise B's bell live and the like leads to the post; with B's socket cut, the bell says
 * 'Polling' and a comment reaches B through the 2-minute poll (the page's clock is moved on, not the server's).
 * The steps and their times are printed and kept in test-results/chat-timeline.txt.
 */

const RESULTS = path.resolve(import.meta.dirname, '../test-results');
const PET = uniqueName('Pepper');
const CAPTION = `Pepper at the vet, all healthy! ${uniqueName('cap')}`;
const FIRST = 'Hi! Is Pepper still looking for a home?';
const SECOND = 'We have a big garden in Lahore and two kids.';
const COMMENT = 'What a lovely photo of Pepper!';
const WAIT = 20_000;

let env: E2eApp;
type UserBrowser = Browser & { pageErrors: string[] };
const browsers: UserBrowser[] = [];
let a: TestUser; // starts the chat
let b: TestUser; // owns the ad and the post
let aToken = '';
let bToken = '';
let adId = '';
let postId = '';
let aPage: Page;
let bPage: Page;

// ---------- timeline ----------

const started = Date.now();
const timeline: { t: number; what: string }[] = [];
const mark = (what: string) => timeline.push({ t: Date.now() - started, what });
const formatTimeline = () =>
  timeline.map(({ t, what }) => `${`+${(t / 1000).toFixed(3)}s`.padStart(10)}  ${what}`).join('\n');

// ---------- helpers ----------

/** A multipart POST with the user's token (ads and posts carry an image). */
async function postForm(
  pathname: string,
  token: string,
  fields: Record<string, string>,
  image?: { field: string; name: string },
) {
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
  const body = (await res.json().catch(() => null)) as { _id?: string; message?: string } | null;
  if (res.status !== 201) throw new Error(`POST ${pathname} answered ${res.status}: ${body?.message ?? ''}`);
  return body!;
}

async function browserFor(user: TestUser): Promise<Page> {
  const browser = await launchBrowser();
  browsers.push(browser);
  const page = await browser.newPage();
  page.setDefaultTimeout(WAIT);
  await signInInBrowser(page, env.url, user);
  return page;
}

/** The header's bell; its name carries the unread count ('Notifications (2 unread)'). */
const bell = (page: Page) => page.getByRole('button', { name: /^Notifications( \(\d+\+? unread\))?$/ });
const bellPanel = (page: Page) => page.getByRole('dialog', { name: 'Notifications' });

/** Opens the bell's panel and answers it. */
async function openBell(page: Page): Promise<Locator> {
  await bell(page).click();
  const panel = bellPanel(page);
  await panel.waitFor();
  return panel;
}

async function closeBell(page: Page) {
  await bellPanel(page).getByRole('button', { name: 'Close notifications' }).click();
  await bellPanel(page).waitFor({ state: 'detached' });
}

/** The connection indicator inside the bell's panel: Real-time, Polling or Offline. */
const indicator = (panel: Locator, label: 'Real-time' | 'Polling' | 'Offline') =>
  panel.getByRole('status').filter({ hasText: new RegExp(`^${label}$`) });

const messageByText = (page: Page, text: string) =>
  page
    .getByTestId('message')
    .filter({ has: page.getByTestId('message-text').getByText(text, { exact: true }) });

/** A page that was not reloaded keeps this mark on its window. */
const setNoReloadMark = (page: Page) =>
  page.evaluate(() => {
    (globalThis as unknown as { __chatNoReload?: boolean }).__chatNoReload = true;
  });
const hasNoReloadMark = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { __chatNoReload?: boolean }).__chatNoReload === true);

type NotificationsBody = { notifications: { type: string; read: boolean; data?: { postId?: string } }[] };

// ---------- set-up ----------

beforeAll(async () => {
  env = await startE2eApp();
  mark('app started');
  [a, b] = await Promise.all([createVerifiedUser(env.url, 'chata'), createVerifiedUser(env.url, 'chatb')]);
  [aToken, bToken] = await Promise.all([apiToken(env.url, a), apiToken(env.url, b)]);
  mark(`users A (${a.username}) and B (${b.username}) created`);
});

afterAll(async () => {
  const text = formatTimeline();
  console.log(`Chat e2e timeline:\n${text}`);
  await mkdir(RESULTS, { recursive: true });
  await writeFile(path.join(RESULTS, 'chat-timeline.txt'), `${text}\n`);
  for (const br of browsers) await br.close();
  await env?.stop();
});

describe('chat between two browsers, with live and polled notifications', () => {
  it('B publishes an adoption ad and a community post through the API', async () => {
    const ad = await postForm(
      '/api/adoptions',
      bToken,
      {
        name: PET,
        age: '3',
        petType: 'Dog',
        location: 'Lahore',
        description: 'Pepper is a calm three-year-old who loves walks, naps and children. Fully vaccinated.',
      },
      { field: 'image', name: 'pepper.png' },
    );
    adId = ad._id!;
    expect(adId).toMatch(/^[0-9a-f-]{36}$/);
    mark(`B published ad ${PET} (${adId})`);
    const post = await postForm(
      '/api/posts',
      bToken,
      { caption: CAPTION },
      { field: 'image', name: 'vet.png' },
    );
    postId = post._id!;
    expect(postId).toMatch(/^[0-9a-f-]{36}$/);
    mark(`B published post ${postId}`);
  });

  it("B opens /chat; A opens the chat from B's ad card and sees B and the pet in the header", async () => {
    bPage = await browserFor(b);
    await bPage.goto(`${env.url}/chat`);
    await bPage.getByTestId('chat-page').waitFor();
    await bPage.getByTestId('no-conversations').waitFor();
    await bPage.getByTestId('chat-empty').waitFor();
    // B's socket is up: the bell's indicator says Real-time.
    const panel = await openBell(bPage);
    await indicator(panel, 'Real-time').waitFor({ timeout: WAIT });
    await closeBell(bPage);
    expect(await bell(bPage).getAttribute('aria-label')).toBe('Notifications');
    await setNoReloadMark(bPage);
    mark('B on /chat (no conversations), indicator Real-time');

    aPage = await browserFor(a);
    const card = await openListingCard(aPage, env.url, PET, WAIT);
    mark("A found B's ad card on /adoption");
    const chat = card.getByRole('link', { name: 'Chat', exact: true });
    expect(await chat.getAttribute('href')).toBe(`/chat/${b.id}?adId=${adId}`);
    await chat.click();
    await aPage.waitForURL(
      (url) => url.pathname === `/chat/${b.id}` && url.searchParams.get('adId') === adId,
      { timeout: WAIT },
    );
    const header = aPage.getByTestId('chat-header');
    await header
      .getByTestId('chat-header-profile')
      .filter({ hasText: b.username })
      .waitFor({ timeout: WAIT });
    expect(await header.getByTestId('chat-header-profile').getAttribute('href')).toBe(
      `/profile/public/${b.id}`,
    );
    expect((await header.getByTestId('conversation-ad').textContent())?.trim()).toBe(`About ${PET}`);
    // B is signed in with a socket: online.
    await header.locator('[data-testid="presence-status"][data-online="true"]').waitFor({ timeout: WAIT });
    expect(await header.getByTestId('presence-status').textContent()).toBe('online');
    mark(`A on /chat/{B}?adId=…, header "${b.username}" "About ${PET}", B online`);
  });

  it("A's first message reaches B's list live; B opens it; typing shows and goes; ticks reach 'read'", async () => {
    // A sends the first message.
    const input = aPage.getByRole('textbox', { name: 'Message' });
    await input.fill(FIRST);
    await aPage.getByRole('button', { name: 'Send message' }).click();
    const first = messageByText(aPage, FIRST);
    await first.waitFor();
    expect(await first.getAttribute('data-mine')).toBe('true');
    mark('A sent the first message');

    // B's list gets the conversation live (no reload): A's name, the preview, one unread.
    const item = bPage.locator(`[data-testid="conversation-item"][data-user-id="${a.id}"]`);
    await item.waitFor({ timeout: WAIT });
    mark("B's list shows the conversation with A (live)");
    expect(await item.getByTestId('conversation-preview').textContent()).toBe(truncate(FIRST));
    await item.getByTestId('unread-badge').filter({ hasText: /^1$/ }).waitFor();
    expect(await hasNoReloadMark(bPage)).toBe(true);
    expect(pathnameOf(bPage)).toBe('/chat');

    // It reached B's browser, which is not looking at it: delivered.
    await first.locator('[data-testid="message-ticks"][data-status="delivered"]').waitFor({ timeout: WAIT });
    mark("A's first message: ticks 'delivered'");

    // B opens it: the message, the header with A and the ad; A's ticks go to read, live.
    await item.click();
    const bWindow = bPage.getByTestId('chat-window');
    await bWindow.waitFor();
    await messageByText(bPage, FIRST).waitFor();
    expect(await messageByText(bPage, FIRST).getAttribute('data-mine')).toBe('false');
    expect(await bWindow.getByTestId('chat-header-profile').textContent()).toBe(a.username);
    expect((await bWindow.getByTestId('conversation-ad').textContent())?.trim()).toBe(`About ${PET}`);
    await item.getByTestId('unread-badge').waitFor({ state: 'detached' });
    mark('B opened the conversation');
    await first.locator('[data-testid="message-ticks"][data-status="read"]').waitFor({ timeout: WAIT });
    expect(await first.getByRole('img', { name: 'Read' }).count()).toBe(1);
    mark("A's first message: ticks 'read'");

    // A types the second message: B sees 'A is typing...'.
    const typingIndicator = bPage.getByTestId('typing-indicator');
    expect(await typingIndicator.count()).toBe(0);
    const typed = input.pressSequentially(SECOND, { delay: 120 });
    await typingIndicator.waitFor({ timeout: WAIT });
    expect(await typingIndicator.textContent()).toBe(`${a.username} is typing...`);
    mark("B sees 'is typing...'");
    await typed;
    const stoppedAt = Date.now();
    mark('A stopped typing');
    // Still there just after the last key (it lasts 3 s after the last typing event, sent at most once a second).
    expect(await typingIndicator.isVisible()).toBe(true);
    await typingIndicator.waitFor({ state: 'detached', timeout: WAIT });
    const goneAfter = Date.now() - stoppedAt;
    mark(`B's typing indicator went ${goneAfter} ms after A's last key`);
    expect(goneAfter).toBeLessThan(5000);

    // A sends it; B has it open, so it is read at once.
    await input.press('Enter');
    const second = messageByText(aPage, SECOND);
    await second.waitFor();
    await messageByText(bPage, SECOND).waitFor({ timeout: WAIT });
    mark("A's second message shows in B's open conversation (live)");
    await second.locator('[data-testid="message-ticks"][data-status="read"]').waitFor({ timeout: WAIT });
    mark("A's second message: ticks 'read'");
    expect(await input.inputValue()).toBe('');
    expect(await hasNoReloadMark(bPage)).toBe(true);

    await mkdir(RESULTS, { recursive: true });
    await aPage.screenshot({ path: path.join(RESULTS, 'chat-a.png') });
    await bPage.screenshot({ path: path.join(RESULTS, 'chat-b.png') });
    mark('screenshots chat-a.png, chat-b.png');
  });

  it("A's like and adoption request raise B's bell live; the like leads to the post", async () => {
    const like = await apiCall(env.url, 'POST', `/api/posts/${postId}/like`, aToken);
    expect(like.status).toBe(200);
    mark("A liked B's post (API)");
    await postForm(`/api/adoptions/${adId}/request`, aToken, {
      name: a.username,
      email: a.email,
      phone: '+92 300 7654321',
      message: 'We would love to give Pepper a home with a garden.',
    });
    mark(`A requested to adopt ${PET} (API)`);

    await bPage.getByRole('button', { name: 'Notifications (2 unread)' }).waitFor({ timeout: WAIT });
    expect(await hasNoReloadMark(bPage)).toBe(true);
    mark("B's bell: 'Notifications (2 unread)' (live)");

    const panel = await openBell(bPage);
    await indicator(panel, 'Real-time').waitFor();
    const likeItem = panel.getByRole('button', { name: new RegExp(`${a.username} liked your post`) });
    await likeItem.waitFor();
    await panel.getByRole('button', { name: new RegExp(`${a.username} wants to adopt ${PET}`) }).waitFor();
    await likeItem.click();
    await waitForPath(bPage, `/posts/${postId}`, WAIT);
    await bPage.getByText(CAPTION).first().waitFor();
    mark(`B clicked the like notification → /posts/${postId}`);
    // The like is read now; the request is still unread.
    await bPage.getByRole('button', { name: 'Notifications (1 unread)' }).waitFor({ timeout: WAIT });
  });

  it("with B's socket cut the bell says 'Polling' and A's comment reaches B through the poll", async () => {
    // B's socket can no longer connect (socket.io's WebSocket and its HTTP polling transport), and the page's
    // timers run on a clock the test can move on; then the page is loaded again.
    let socketAttempts = 0;
    await bPage.route(/\/socket\.io\//, (route) => {
      socketAttempts++;
      return route.abort();
    });
    await bPage.routeWebSocket(/\/socket\.io\//, (ws) => {
      socketAttempts++;
      return ws.close();
    });
    await bPage.clock.install();
    const polls: { at: number; url: string; body: Promise<NotificationsBody | null> }[] = [];
    bPage.on('response', (res) => {
      const url = new URL(res.url());
      if (url.pathname === '/api/notifications' && url.searchParams.get('limit') === '5')
        polls.push({
          at: Date.now(),
          url: res.url(),
          body: res.json().catch(() => null) as Promise<NotificationsBody | null>,
        });
    });
    await bPage.reload();
    await bPage.getByText(CAPTION).first().waitFor({ timeout: WAIT });
    mark("B reloaded /posts/{id} with socket.io blocked and Playwright's clock installed");

    const panel = await openBell(bPage);
    await indicator(panel, 'Polling').waitFor({ timeout: WAIT });
    mark("B's indicator: Polling");
    await closeBell(bPage);
    expect(socketAttempts).toBeGreaterThan(0);
    await bPage.getByRole('button', { name: 'Notifications (1 unread)' }).waitFor({ timeout: WAIT });
    // Polling started with a first read of the first page (limit 5).
    await expect.poll(() => polls.length, { timeout: WAIT }).toBeGreaterThan(0);
    const pollsBefore = polls.length;
    mark(`B's first poll seen (${pollsBefore} so far)`);

    const comment = await apiCall(env.url, 'POST', `/api/comments/${postId}`, aToken, { content: COMMENT });
    expect(comment.status).toBe(201);
    mark("A commented on B's post (API)");
    // The server has it for B (read with B's own token from the test, not by the page).
    await expect
      .poll(
        async () =>
          (
            (await apiCall(env.url, 'GET', '/api/notifications?page=1&limit=5', bToken))
              .body as NotificationsBody
          )?.notifications?.some((n) => n.type === 'post_comment' && !n.read) ?? false,
        { timeout: WAIT },
      )
      .toBe(true);
    mark("server has B's post_comment notification");
    // Nothing pushed it to B's page.
    expect(await bell(bPage).getAttribute('aria-label')).toBe('Notifications (1 unread)');
    expect(polls.length).toBe(pollsBefore);

    // Two minutes later (on the page's clock) the poll brings it.
    const forwardedAt = Date.now();
    await bPage.clock.fastForward('02:05');
    mark("B's page clock moved on 2 min 5 s");
    await bPage.getByRole('button', { name: 'Notifications (2 unread)' }).waitFor({ timeout: WAIT });
    mark("B's bell: 'Notifications (2 unread)' (by polling)");
    const poll = polls.slice(pollsBefore).find((p) => p.at >= forwardedAt);
    expect(poll, 'a poll of the first page after the clock moved on').toBeDefined();
    const polled = await poll!.body;
    expect(polled?.notifications.some((n) => n.type === 'post_comment' && n.data?.postId === postId)).toBe(
      true,
    );

    const after = await openBell(bPage);
    await indicator(after, 'Polling').waitFor();
    await after.getByRole('button', { name: new RegExp(`${a.username} commented on your post`) }).waitFor();
    mark("B's panel lists the comment notification, indicator still Polling");
    await bPage.screenshot({ path: path.join(RESULTS, 'chat-b-polling.png') });

    for (const br of browsers) expect(br.pageErrors).toEqual([]);
  });

  it("C, whose account the admin deletes, leaves A's conversation list live, without a reload", async () => {
    const c = await createVerifiedUser(env.url, 'chatc');
    const cToken = await apiToken(env.url, c);
    const started = await apiCall(env.url, 'POST', '/api/conversations', cToken, {
      senderId: c.id,
      receiverId: a.id,
    });
    expect(started.status).toBe(200);
    const conversationId = (started.body as { data: { _id: string } }).data._id;
    const sent = await apiCall(env.url, 'POST', '/api/messages', cToken, {
      conversationId,
      senderId: c.id,
      text: 'Hello from C',
    });
    expect(sent.status).toBe(201);
    await setNoReloadMark(aPage);
    const item = aPage.locator(`[data-testid="conversation-item"][data-user-id="${c.id}"]`);
    await item.waitFor({ timeout: WAIT });
    mark("A's list shows the conversation with C (live)");

    const admin = await adminToken(env.url, env.app.adminCredentials!);
    expect((await apiCall(env.url, 'DELETE', `/api/admin/user/${c.id}`, admin)).status).toBe(200);
    await item.waitFor({ state: 'detached', timeout: WAIT });
    mark("C deleted by the admin: gone from A's list (live)");
    expect(await hasNoReloadMark(aPage)).toBe(true);
    // A's conversation with B is still there and open.
    await aPage.locator(`[data-testid="conversation-item"][data-user-id="${b.id}"]`).waitFor();
    await messageByText(aPage, FIRST).waitFor();
    for (const br of browsers) expect(br.pageErrors).toEqual([]);
  });
});

describe('issue 21: the Inbox badge, grouped bubbles, the phone list, one find call', () => {
  let p: TestUser; // writes
  let q: TestUser; // reads, on other pages
  let pToken = '';
  let qPage: Page;
  let conversationId = '';
  /** The Inbox link of the main navigation (the header's, or the drawer's while it is open). */
  const inbox = (page: Page, name: string | RegExp = /^Inbox/) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
  const send = async (text: string) => {
    const res = await apiCall(env.url, 'POST', '/api/messages', pToken, {
      conversationId,
      senderId: p.id,
      text,
    });
    expect(res.status).toBe(201);
  };

  beforeAll(async () => {
    [p, q] = await Promise.all([
      createVerifiedUser(env.url, 'inboxp'),
      createVerifiedUser(env.url, 'inboxq'),
    ]);
    pToken = await apiToken(env.url, p);
  });

  it("B on /adoption sees the header's Inbox badge go to 1 when A writes, in the drawer at 360 px too; opening the conversation clears it", async () => {
    qPage = await browserFor(q);
    await qPage.goto(`${env.url}/adoption`);
    await inbox(qPage).waitFor();
    expect(await inbox(qPage).getAttribute('aria-label')).toBeNull();
    expect((await inbox(qPage).textContent())?.trim()).toBe('Inbox');
    await setNoReloadMark(qPage);

    const started = await apiCall(env.url, 'POST', '/api/conversations', pToken, {
      senderId: p.id,
      receiverId: q.id,
    });
    expect(started.status).toBe(200);
    conversationId = (started.body as { data: { _id: string } }).data._id;
    await send('Hello! Is the kitten still with you?');
    mark('inbox: A wrote to B (API); B is on /adoption');

    const badged = inbox(qPage, 'Inbox, 1 unread conversation');
    await badged.waitFor({ timeout: WAIT });
    expect((await badged.getByTestId('inbox-badge').textContent())?.trim()).toBe('1');
    expect(await hasNoReloadMark(qPage)).toBe(true);
    expect(pathnameOf(qPage)).toBe('/adoption');
    mark("inbox: B's header says 'Inbox, 1 unread conversation' (live)");
    await qPage.screenshot({ path: path.join(RESULTS, 'chat-inbox-badge-1280.png') });

    await qPage.setViewportSize({ width: 360, height: 740 });
    // The header's links are in the drawer now: its button carries a dot.
    await qPage.locator('[data-testid="inbox-dot"] .MuiBadge-dot:not(.MuiBadge-invisible)').waitFor();
    await qPage.getByRole('button', { name: 'Open navigation' }).click();
    const drawerEntry = qPage
      .locator('#main-navigation-drawer')
      .getByRole('link', { name: 'Inbox, 1 unread conversation', exact: true });
    await drawerEntry.waitFor();
    expect((await drawerEntry.getByTestId('inbox-badge').textContent())?.trim()).toBe('1');
    expect(await horizontalOverflow(qPage)).toBe(0);
    await qPage.screenshot({ path: path.join(RESULTS, 'chat-inbox-badge-360.png') });
    await qPage.getByRole('button', { name: 'Close navigation' }).click();
    await drawerEntry.waitFor({ state: 'detached' });
    mark("inbox: B's drawer at 360 px says 'Inbox, 1 unread conversation'");

    await qPage.setViewportSize({ width: 1280, height: 800 });
    await inbox(qPage).click();
    await waitForPath(qPage, '/chat');
    await qPage.locator(`[data-testid="conversation-item"][data-user-id="${p.id}"]`).click();
    await qPage.getByTestId('chat-window').waitFor();
    await inbox(qPage, 'Inbox').waitFor({ timeout: WAIT });
    expect(await qPage.getByTestId('inbox-badge').count()).toBe(0);
    mark('inbox: B opened the conversation, the badge went');
  });

  it('three quick messages of one sender make one group with one time stamp, on its last bubble', async () => {
    const texts = ['First of three', 'Second of three', 'Third of three'];
    for (const text of texts) await send(text);
    const bubbles = texts.map((text) => messageByText(qPage, text));
    for (const bubble of bubbles) await bubble.waitFor({ timeout: WAIT });
    const times = await Promise.all(bubbles.map((bubble) => bubble.locator('time').count()));
    expect(times).toEqual([0, 0, 1]);
    expect(await bubbles[2]!.getAttribute('data-group-position')).toBe('last');
    expect(await bubbles[0]!.getAttribute('data-group-position')).not.toBe('last');
    // The first message of the conversation came a moment before: the same group, no time of its own.
    expect(await messageByText(qPage, 'Hello! Is the kitten still with you?').locator('time').count()).toBe(
      0,
    );
    await qPage.screenshot({ path: path.join(RESULTS, 'chat-grouped-bubbles.png') });
    mark('grouping: three quick messages, one time stamp on the last');
  });

  it('on a phone /chat opens on the conversation list; a conversation has a back arrow; /chat/{id} opens it', async () => {
    await qPage.setViewportSize({ width: 360, height: 740 });
    await qPage.goto(`${env.url}/chat`);
    const item = qPage.locator(`[data-testid="conversation-item"][data-user-id="${p.id}"]`);
    await item.waitFor({ timeout: WAIT });
    expect(await qPage.getByTestId('chat-empty').count()).toBe(0);
    expect(await qPage.getByRole('button', { name: 'View Conversations' }).count()).toBe(0);
    expect(await horizontalOverflow(qPage)).toBe(0);
    await qPage.screenshot({ path: path.join(RESULTS, 'chat-phone-list-360.png') });
    await item.click();
    await qPage.getByTestId('chat-window').waitFor();
    expect(await item.count()).toBe(0);
    await qPage.getByRole('button', { name: 'Back to conversations' }).click();
    await item.waitFor();
    await qPage.goto(`${env.url}/chat/${p.id}`);
    await messageByText(qPage, 'Third of three').waitFor({ timeout: WAIT });
    expect(await qPage.getByTestId('conversation-item').count()).toBe(0);
    await qPage.setViewportSize({ width: 1280, height: 800 });
    mark('phone: /chat opens on the list, /chat/{id} on the conversation');
  });

  it('with the socket blocked (Polling) a message from A still reaches the Inbox badge through the poll', async () => {
    await qPage.setViewportSize({ width: 1280, height: 800 });
    await qPage.route(/\/socket\.io\//, (route) => route.abort());
    await qPage.routeWebSocket(/\/socket\.io\//, (ws) => ws.close());
    await qPage.goto(`${env.url}/adoption`);
    const panel = await openBell(qPage);
    await indicator(panel, 'Polling').waitFor({ timeout: WAIT });
    await closeBell(qPage);
    await inbox(qPage, 'Inbox').waitFor({ timeout: WAIT });
    await setNoReloadMark(qPage);
    await send('Are you there? Sent while your socket is down.');
    mark('polling: A wrote to B, whose socket is blocked');
    await inbox(qPage, 'Inbox, 1 unread conversation').waitFor({ timeout: WAIT });
    expect(await hasNoReloadMark(qPage)).toBe(true);
    mark("polling: B's Inbox badge went to 1 by the poll");
    await qPage.unrouteAll();
  });

  it('opening a chat with a new partner from a profile or an ad asks /find/ exactly once', async () => {
    const r = await createVerifiedUser(env.url, 'inboxr');
    const rToken = await apiToken(env.url, r);
    const petName = uniqueName('Biscuit');
    await postForm(
      '/api/adoptions',
      rToken,
      {
        name: petName,
        age: '2',
        petType: 'Cat',
        location: 'Karachi',
        description: 'Biscuit is a gentle two-year-old cat who loves sunny windows and quiet evenings.',
      },
      { field: 'image', name: 'biscuit.png' },
    );
    const s = await createVerifiedUser(env.url, 'inboxs');
    const sPage = await browserFor(s);
    const finds: string[] = [];
    sPage.on('request', (req) => {
      if (new URL(req.url()).pathname.startsWith('/api/conversations/find/')) finds.push(req.url());
    });

    // From a profile: Message.
    await sPage.goto(`${env.url}/profile/public/${p.id}`);
    await sPage.getByRole('button', { name: 'Message' }).click();
    await waitForPath(sPage, `/chat/${p.id}`, WAIT);
    // A message sent and confirmed by the server: the conversation was found or started, nothing more to ask.
    const sendAndWait = async (text: string) => {
      await sPage.getByRole('textbox', { name: 'Message' }).fill(text);
      await sPage.getByRole('button', { name: 'Send message' }).click();
      await messageByText(sPage, text)
        .locator('[data-status="sent"], [data-status="delivered"], [data-status="read"]')
        .first()
        .waitFor({ timeout: WAIT });
    };
    await sendAndWait('Hello from your profile page');
    expect(finds).toHaveLength(1);
    mark('find: from a profile, one /find/ request');

    // From an ad: its Chat link.
    finds.length = 0;
    const card = await openListingCard(sPage, env.url, petName, WAIT);
    await card.getByRole('link', { name: 'Chat', exact: true }).click();
    await waitForPath(sPage, `/chat/${r.id}`, WAIT);
    await sendAndWait('Hello about your cat');
    expect(finds).toHaveLength(1);
    mark('find: from an ad, one /find/ request');
    for (const br of browsers) expect(br.pageErrors).toEqual([]);
  });
});

/** The list preview: 35 characters, then '...'. */
function truncate(text: string, max = 35) {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

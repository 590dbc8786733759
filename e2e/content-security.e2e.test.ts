import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2eApp, type E2eApp } from './support/app';
import { launchBrowser, type Browser } from './support/browser';
import { createVerifiedUser, signInInBrowser, type TestUser } from './support/adoption';
import { apiCall, apiToken } from './support/community';
import { createGoogleTestKeys, GOOGLE_TEST_CLIENT_ID } from '@pawhaven/testing';
import { makePng } from './support/png';

/**
 * The Content-Security-Policy holds the app to what it needs (issue 20): no 'unsafe-inline' styles, no pictures from
 * any https host or data:. Every page of the app — public, signed in, the admin dashboard, the dev mailbox — is opened
 * in Chromium with every kind of content on it (pictures, a request with its proof, a chat, notifications, a file
 * being previewed, Google's button) and must report no `securitypolicyviolation` and log no CSP error, while its
 * styles really apply (emotion's <style> elements carry the page's nonce).
 */

let env: E2eApp;
let browser: Browser & { pageErrors: string[] };
let owner: TestUser;
let requester: TestUser;
let ownerToken: string;
let adId = '';
let postId = '';
const REQUEST_EMAIL = "o'neil+pets@gmail.com";

type Violation = { page: string; directive: string; blocked: string; sample: string };
const violations: Violation[] = [];
const consoleErrors: string[] = [];

async function postForm(path: string, token: string, fields: Record<string, string>, file?: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file)
    form.append(file, new Blob([new Uint8Array(makePng(160, 120))], { type: 'image/png' }), 'pet.png');
  const res = await fetch(`${env.url}${path}`, {
    method: 'POST',
    headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`POST ${path} answered ${res.status}: ${String(body.message)}`);
  return body;
}

/** Google's client, stood in for (no network here): like the real one, it adds a <style> with its script's nonce. */
async function fakeGoogleClient(page: Page) {
  await page.route('https://accounts.google.com/gsi/client', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/javascript',
      body: `
        const nonce = document.currentScript && document.currentScript.nonce;
        const style = document.createElement('style');
        if (nonce) style.nonce = nonce;
        style.textContent = '.gsi-stand-in { color: rgb(1, 2, 3); }';
        document.head.appendChild(style);
        window.google = { accounts: { id: {
          initialize() {},
          renderButton(element) {
            const button = document.createElement('button');
            button.type = 'button';
            button.className = 'gsi-stand-in';
            button.textContent = 'Sign in with Google';
            element.appendChild(button);
          },
        } } };`,
    }),
  );
}

async function newPage(): Promise<Page> {
  const page = await browser.newPage();
  await page.exposeFunction('__reportCsp', (v: Violation) => violations.push(v));
  await page.addInitScript(() => {
    const report = (window as unknown as { __reportCsp(v: unknown): void }).__reportCsp;
    document.addEventListener(
      'securitypolicyviolation',
      (e) =>
        report({
          page: location.pathname,
          directive: e.violatedDirective,
          blocked: e.blockedURI,
          sample: e.sample,
        }),
      true,
    );
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|Refused to/i.test(msg.text()))
      consoleErrors.push(`${new URL(page.url()).pathname}: ${msg.text()}`);
  });
  await fakeGoogleClient(page);
  return page;
}

/** Opens `path`, waits for `ready`, and checks the theme's styles applied (emotion's rules are in the page). */
async function visit(page: Page, path: string, ready: string | RegExp) {
  const response = await page.goto(`${env.url}${path}`);
  // Under the tight policy (a page of the single-page app, or the dev mailbox, served with it).
  const policy = (await response?.allHeaders())?.['content-security-policy'] ?? '';
  expect(policy, path).toMatch(/style-src-elem 'self' 'nonce-/);
  expect(policy, path).not.toContain("'unsafe-inline'");
  await page.getByText(ready).first().waitFor({ timeout: 15_000 });
  // Let lazy parts, pictures and pushes arrive.
  await page.waitForLoadState('networkidle').catch(() => {});
  const styled = await page.evaluate(() => ({
    background: getComputedStyle(document.body).backgroundColor,
    emotionSheets: document.querySelectorAll('style[data-emotion]').length,
  }));
  expect(styled.emotionSheets, path).toBeGreaterThan(0);
  return styled;
}

beforeAll(async () => {
  const google = await createGoogleTestKeys();
  env = await startE2eApp({ GOOGLE_CLIENT_ID: GOOGLE_TEST_CLIENT_ID }, { googleKeys: google.keys });
  [owner, requester] = await Promise.all([
    createVerifiedUser(env.url, 'cspowner'),
    createVerifiedUser(env.url, 'cspreq'),
  ]);
  ownerToken = await apiToken(env.url, owner);
  const requesterToken = await apiToken(env.url, requester);
  await postForm('/api/auth/upload-profile-image', ownerToken, {}, 'image');
  const ad = await postForm(
    '/api/adoptions',
    ownerToken,
    { name: 'Saffron', age: '2', petType: 'Cat', location: 'Lahore', description: 'A calm cat.' },
    'image',
  );
  adId = String(ad._id);
  await postForm(
    `/api/adoptions/${adId}/request`,
    requesterToken,
    { name: 'Noor', email: REQUEST_EMAIL, phone: '+92 300 1234567', message: 'We have a garden.' },
    'petHistoryImage',
  );
  const post = await postForm('/api/posts', ownerToken, { caption: 'Sunny window' }, 'image');
  postId = String(post._id);
  await apiCall(env.url, 'POST', `/api/comments/${postId}`, requesterToken, { content: 'So cute!' });
  const started = await apiCall(env.url, 'POST', '/api/conversations', requesterToken, {
    senderId: requester.id,
    receiverId: owner.id,
  });
  const conversationId = (started.body as { data: { _id: string } }).data._id;
  await apiCall(env.url, 'POST', '/api/messages', requesterToken, {
    conversationId,
    senderId: requester.id,
    text: 'Is Saffron still looking for a home?',
  });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await env?.stop();
});

describe('the Content-Security-Policy', () => {
  it('allows no inline style but by nonce, no picture from data: or any https host, and a fresh nonce per page', async () => {
    const pages = await Promise.all([fetch(`${env.url}/`), fetch(`${env.url}/adoption`)]);
    const [first, second] = pages.map((r) => r.headers.get('content-security-policy') ?? '');
    const directives = new Map(
      first!.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values] as const;
      }),
    );
    expect(first).not.toContain("'unsafe-inline'");
    expect(directives.get('img-src')).toEqual(["'self'", 'blob:']);
    expect(directives.get('style-src-elem')).toEqual([
      "'self'",
      expect.stringMatching(/^'nonce-[A-Za-z0-9+/=]{24}'$/),
      'https://accounts.google.com/gsi/style',
    ]);
    expect(directives.get('style-src-attr')?.[0]).toBe("'unsafe-hashes'");
    expect(directives.get('script-src')).toEqual(["'self'", 'https://accounts.google.com/gsi/client']);
    expect(directives.get('font-src')).toEqual(["'self'"]);
    const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonceOf(first!)).not.toBe(nonceOf(second!));
    const html = await pages[0]!.text();
    expect(html).toContain(`nonce="${nonceOf(first!)}"`);
    expect(html).not.toContain('PAWHAVEN_CSP_NONCE');
    // Served under its own name too, never with the placeholder.
    expect(await (await fetch(`${env.url}/index.html`)).text()).not.toContain('PAWHAVEN_CSP_NONCE');
  });

  it('every public page loads with no violation', async () => {
    const page = await newPage();
    const { background } = await visit(page, '/', 'How It Works');
    expect(background).toBe('rgb(255, 248, 240)');
    await visit(page, '/ngo', /NGO/);
    await visit(page, '/clinics', /Clinic/);
    await visit(page, '/faq', /Frequently Asked|FAQ/);
    await visit(page, '/team', /Team|Ambassador/);
    await visit(page, '/contactus', /Contact/);
    await visit(page, '/posts', 'Sunny window');
    await visit(page, `/posts/${postId}`, 'So cute!');
    await visit(page, '/adoption', 'Saffron');
    await visit(page, `/profile/public/${owner.id}`, owner.username);
    await visit(page, '/signup', 'Create Your Account');
    await visit(page, '/signin', 'Sign in with Google');
    // Google's stand-in style applied: its <style> carried the nonce handed to its script.
    await expect
      .poll(() =>
        page
          .getByText('Sign in with Google')
          .first()
          .evaluate((el) => getComputedStyle(el).color),
      )
      .toBe('rgb(1, 2, 3)');
    await visit(page, '/verify-registration', /Verif/);
    await visit(page, '/verify-code', /code/i);
    await visit(page, '/reset-password', /password/i);
    await visit(page, '/no-such-page', /not found|404/i);
    await page.goto(`${env.url}/dev/mailbox`);
    await page.getByRole('heading', { name: 'Dev mailbox' }).waitFor();
    expect(
      await page.evaluate(() => getComputedStyle(document.querySelector('article')!).borderTopLeftRadius),
    ).toBe('10px');
    // The API reference: Swagger UI, its stylesheet applied, under the app's policy plus data: pictures (its icons).
    await page.goto(`${env.url}/api/reference`);
    await page
      .locator('.opblock-summary-path[data-path="/api/adoptions"]')
      .first()
      .waitFor({ timeout: 15_000 });
    expect(
      await page.evaluate(
        () =>
          getComputedStyle(document.querySelector('.opblock-get .opblock-summary-method')!).backgroundColor,
      ),
    ).toBe('rgb(97, 175, 254)');
    expect(violations).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('every signed-in page loads with no violation, a file preview (blob:) included', async () => {
    const page = await newPage();
    await signInInBrowser(page, env.url, owner);
    await visit(page, '/', 'How It Works');
    await visit(page, '/posts', 'Sunny window');
    await visit(page, '/my-posts', 'Sunny window');
    await visit(page, '/createpost', /Create Post/);
    await page
      .locator('input[type="file"]')
      .first()
      .setInputFiles({
        name: 'preview.png',
        mimeType: 'image/png',
        buffer: makePng(120, 90),
      });
    await page.locator('img[src^="blob:"]').first().waitFor();
    await visit(page, '/adoption', /Adoption/);
    await visit(page, '/create-adoption', /Create/);
    await visit(page, '/my-adoptions', 'Saffron');
    await visit(page, '/adoptionhistory', /Adoption History|No Adoption History/);
    await visit(page, '/profile', owner.username);
    await visit(page, '/notifications', /Notifications/);
    await visit(page, '/chat', /Saffron|Conversations|cspreq/);
    await visit(page, `/chat/${requester.id}`, 'Is Saffron still looking for a home?');
    await visit(page, '/messages', /Messages|Conversations|cspreq/);
    await page.getByRole('button', { name: `Hi, ${owner.username}` }).click();
    await page.getByRole('menuitem', { name: 'My Profile' }).waitFor();
    expect(violations).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it("a request's e-mail is an encoded mailto: link, its phone a tel: link of digits", async () => {
    const page = await newPage();
    await signInInBrowser(page, env.url, owner);
    await visit(page, '/my-adoptions', 'Saffron');
    const mail = page.getByRole('link', { name: REQUEST_EMAIL }).first();
    if (!(await mail.isVisible()))
      await page
        .getByRole('button', { name: /request/i })
        .first()
        .click();
    await expect.poll(() => mail.getAttribute('href')).toBe("mailto:o'neil%2Bpets@gmail.com");
    expect(await page.getByRole('link', { name: '+92 300 1234567' }).first().getAttribute('href')).toBe(
      'tel:+923001234567',
    );
  });

  it('every page of the admin dashboard loads with no violation', async () => {
    const page = await newPage();
    const admin = env.app.adminCredentials!;
    await page.goto(`${env.url}/signin`);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/admin-dashboard', { timeout: 15_000 });
    for (const [path, ready] of [
      ['/admin-dashboard', /Dashboard/],
      ['/admin-dashboard/manage-users', /Regular Users/],
      ['/admin-dashboard/adoptions', 'Saffron'],
      ['/admin-dashboard/adoption-requests', REQUEST_EMAIL],
      ['/admin-dashboard/posts', 'Sunny window'],
      ['/admin-dashboard/comments', 'So cute!'],
      ['/admin-dashboard/streams', /adoption-/],
      ['/admin-dashboard/projections', /community-posts/],
    ] as const)
      await visit(page, path, ready);
    expect(violations).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});

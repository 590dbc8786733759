import type { Page } from 'playwright-core';
import type { AuditEntryDto } from '@pawhaven/contracts';
import { uniqueName } from './app';
import { waitForPath } from './browser';
import { readCode } from './mailbox';

/** Helpers of the adoption browser test: users made through the HTTP API, browser sign-in, the admin audit. */

export const PASSWORD = 'Adopt!Me2025';

export type TestUser = { username: string; email: string; password: string; id: string };

async function postJson<T>(baseUrl: string, path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const data = (await res.json().catch(() => null)) as T & { message?: string };
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${data?.message ?? ''}`);
  return data;
}

/** Registers a user through the API and verifies the mailed code (faster than the sign-up screens). */
export async function createVerifiedUser(
  baseUrl: string,
  prefix: string,
  opts: { isVeterinarian?: boolean } = {},
): Promise<TestUser> {
  const username = uniqueName(prefix);
  const email = `${username}@gmail.com`;
  const since = new Date(Date.now() - 1000);
  const { registrationToken } = await postJson<{ registrationToken: string }>(baseUrl, '/api/auth/register', {
    username,
    email,
    password: PASSWORD,
    isVeterinarian: opts.isVeterinarian ?? false,
  });
  const otp = await readCode(baseUrl, email, { subject: /verification/i, since });
  const auth = await postJson<{ token: string; user: { id?: string; _id?: string } }>(
    baseUrl,
    '/api/auth/verify-registration',
    { email, otp, registrationToken },
  );
  return { username, email, password: PASSWORD, id: auth.user.id || auth.user._id || '' };
}

/** Signs in through the sign-in screen and waits for the greeting. */
export async function signInInBrowser(
  page: Page,
  baseUrl: string,
  user: Pick<TestUser, 'email' | 'password' | 'username'>,
) {
  await page.goto(`${baseUrl}/signin`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await waitForPath(page, '/');
  await page.getByRole('button', { name: `Hi, ${user.username}` }).waitFor();
}

/**
 * Opens /adoption until the ad's card is there: another user's write reaches the listing once the read model has
 * it (a different browser does not send that user's `X-Consistent-After`).
 */
export async function openListingCard(page: Page, baseUrl: string, petName: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.goto(`${baseUrl}/adoption`);
    const card = page.getByRole('article', { name: petName });
    try {
      await card.waitFor({ timeout: 2000 });
      return card;
    } catch (e) {
      if (Date.now() > deadline) throw e;
    }
  }
}

/** Signs the administrator in through the API. */
export async function adminToken(baseUrl: string, credentials: { email: string; password: string }) {
  const res = await postJson<{ token: string }>(baseUrl, '/api/auth/signin', {
    ...credentials,
    rememberMe: false,
  });
  return res.token;
}

export type AdHistory = {
  adId: string;
  ad: { name: string; status: string } | null;
  timeline: AuditEntryDto[];
};

/** GET /api/admin/adoptions/{adId}/history, polled until `done` holds (the audit is a projection). */
export async function adminAdHistory(
  baseUrl: string,
  token: string,
  adId: string,
  done: (h: AdHistory) => boolean,
  timeoutMs = 10_000,
): Promise<AdHistory> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${baseUrl}/api/admin/adoptions/${adId}/history`, {
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    });
    if (res.ok) {
      const history = (await res.json()) as AdHistory;
      if (done(history)) return history;
      if (Date.now() > deadline) return history;
    } else if (res.status !== 404 || Date.now() > deadline) {
      throw new Error(`GET admin history answered ${res.status}: ${await res.text()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** One line per audit entry: position, event type, from → to, actor, time. */
export function formatTimeline(history: AdHistory): string {
  const rows = history.timeline.map((e) =>
    [
      e.position.padStart(6),
      e.eventType.padEnd(24),
      `${e.subject}${e.requestId ? ` ${e.requestId.slice(0, 8)}` : ''}`.padEnd(16),
      `${e.fromStatus ?? '∅'} → ${e.toStatus ?? '∅'}`.padEnd(24),
      (e.actor?.username ?? 'system').padEnd(24),
      e.at,
    ].join('  '),
  );
  return [
    `Audit timeline of ad ${history.adId} (${history.ad?.name ?? '?'}, ${history.ad?.status ?? '?'}):`,
    ...rows,
  ].join('\n');
}

import type { Locator, Page } from 'playwright-core';
import type { TestUser } from './adoption';
import type { PageGlobals } from './browser';

/** Helpers of the community browser test: API calls as a user, feed cards, comments, overflow. */

/** Signs a user in through the API and answers the access token. */
export async function apiToken(baseUrl: string, user: Pick<TestUser, 'email' | 'password'>) {
  const res = await fetch(`${baseUrl}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password, rememberMe: false }),
  });
  if (!res.ok) throw new Error(`POST /api/auth/signin answered ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

/** One call of the API with a bearer token; answers the status and the JSON body. */
export async function apiCall(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  token: string | null,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** The feed card of a post (cards are articles named 'Post by {author}'), found by its caption. */
export const postCard = (page: Page, author: string, caption: string) =>
  page.getByRole('article', { name: `Post by ${author}` }).filter({ hasText: caption });

/** One comment's own block (author, text, actions; its replies are outside it), found by its text. */
export const commentBlock = (scope: Page | Locator, text: string) =>
  scope.getByTestId('comment').filter({ hasText: text });

/**
 * Opens `path` until `ready` is there: another user's write reaches the read model a moment later, and a
 * different browser does not send that user's `X-Consistent-After`.
 */
export async function openUntil(
  page: Page,
  url: string,
  ready: () => Locator,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.goto(url);
    try {
      await ready().waitFor({ timeout: 2000 });
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
    }
  }
}

/** The page's document width against the viewport: equal when nothing overflows sideways. */
export const horizontalOverflow = (page: Page) =>
  page.evaluate(() => {
    const { documentElement } = (globalThis as unknown as PageGlobals).document;
    return documentElement.scrollWidth - documentElement.clientWidth;
  });

/** The computed CSS colour of an element. */
export const colourOf = (locator: Locator) =>
  locator.evaluate(
    (el) =>
      (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(el)
        .color,
  );

/** The natural width of an image element (0 while it has not loaded or failed). */
export const naturalWidth = (locator: Locator) =>
  locator.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth);

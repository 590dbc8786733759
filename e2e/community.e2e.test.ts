import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2eApp, uniqueName, type E2eApp } from './support/app';
import { createVerifiedUser, signInInBrowser, type TestUser } from './support/adoption';
import { launchBrowser, pathnameOf, waitForPath, type Browser } from './support/browser';
import {
  apiCall,
  apiToken,
  colourOf,
  commentBlock,
  horizontalOverflow,
  naturalWidth,
  openUntil,
  postCard,
} from './support/community';
import { makePng } from './support/png';

/**
 * Community posts in real browsers against the whole product: A (a veterinarian) shares a photo, B likes it, comments,
 * and replies to A's reply; B opens the post page and A's public profile; A may not delete B's comment (no button, and
 * the API refuses), B may, and the thread keeps its replies. A visitor sees 'Sign in to Post'; /posts fits a 360 px
 * screen; a new user's view of /posts is kept as a screenshot in test-results/.
 */

const SCREENSHOTS = path.resolve(import.meta.dirname, '../test-results');
const CAPTION = `Milo learned to sit today! ${uniqueName('milo')}`;
const B_COMMENT = 'Such a clever boy, well done Milo!';
const A_REPLY = 'Thank you! Treats did most of the work.';
const B_REPLY = 'Ha, treats always do. Which ones does he like?';
const RED = 'rgb(198, 40, 40)'; // theme error.main #C62828

let env: E2eApp;
type UserBrowser = Browser & { pageErrors: string[] };
const browsers: UserBrowser[] = [];
let author: TestUser; // A, a veterinarian
let reader: TestUser; // B
let newcomer: TestUser; // C, signed up a moment ago
let postId = '';
let bCommentId = '';

async function browserFor(user: TestUser | null, viewport?: { width: number; height: number }) {
  const browser = await launchBrowser();
  browsers.push(browser);
  const page = await browser.newPage(viewport);
  if (user) await signInInBrowser(page, env.url, user);
  return page;
}

const isPath = (r: { url(): string }, pathname: string) => new URL(r.url()).pathname === pathname;
const replyBox = (page: Page) => page.getByRole('textbox', { name: /^Reply to / });

beforeAll(async () => {
  env = await startE2eApp();
  [author, reader, newcomer] = await Promise.all([
    createVerifiedUser(env.url, 'vetamna', { isVeterinarian: true }),
    createVerifiedUser(env.url, 'bilal'),
    createVerifiedUser(env.url, 'newcomer'),
  ]);
});

afterAll(async () => {
  for (const b of browsers) await b.close();
  await env?.stop();
});

describe('community posts, likes and threaded comments', () => {
  let aPage: Page;
  let bPage: Page;

  it('A shares a photo from the inline form on /posts and lands on /my-posts', async () => {
    const page = (aPage = await browserFor(author));
    await page.goto(`${env.url}/posts`);
    await page.getByRole('heading', { name: 'Community Posts', level: 1 }).waitFor();
    // Nothing shared yet.
    await page.getByText('No posts yet', { exact: true }).waitFor();
    await page.getByText('Be the first to share your pet story!').waitFor();
    expect(await page.getByRole('link', { name: 'My Posts' }).getAttribute('href')).toBe('/my-posts');
    expect(await page.getByRole('link', { name: 'Sign in to Post' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Create Post' }).click();
    const form = page.getByRole('form', { name: 'Create post' });
    await form.getByLabel('Caption').waitFor();

    // Both fields are required; nothing is sent.
    await form.getByRole('button', { name: 'Create Post' }).click();
    // This step failed twice in full runs on a loaded machine (not reproduced alone): say what the page showed.
    await form
      .getByText('Caption is required')
      .waitFor()
      .catch(async (error: unknown) => {
        const shown = await page
          .locator('main')
          .innerText()
          .catch(() => '(no main)');
        throw new Error(
          `${String(error)}\nat ${page.url()}, the page showed: ${JSON.stringify(shown.slice(0, 600))}; ` +
            `page errors: ${JSON.stringify(browsers.at(-1)?.pageErrors ?? [])}`,
        );
      });
    await form.getByText('Please select an image').waitFor();

    await form.getByLabel('Caption').fill(CAPTION);
    const image = { name: 'milo.png', mimeType: 'image/png', buffer: makePng(240, 180) };
    await form.getByLabel('Image', { exact: true }).setInputFiles(image);
    await form.getByRole('img', { name: 'Preview of milo.png' }).waitFor();
    await form.getByRole('button', { name: 'Remove image' }).click();
    await form.getByRole('img', { name: 'Preview of milo.png' }).waitFor({ state: 'detached' });
    await form.getByLabel('Image', { exact: true }).setInputFiles(image);
    await form.getByRole('img', { name: 'Preview of milo.png' }).waitFor();

    // A refusal without a message reads 'Failed to create post', in red above the form; nothing typed is lost.
    const refuse = (route: Route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{}' })
        : route.continue();
    const postsPath = (url: URL) => url.pathname === '/api/posts';
    await page.route(postsPath, refuse);
    await form.getByRole('button', { name: 'Create Post' }).click();
    await form.getByRole('alert').filter({ hasText: 'Failed to create post' }).waitFor();
    await page.unroute(postsPath, refuse);
    expect(await form.getByLabel('Caption').inputValue()).toBe(CAPTION);

    // 'Posting...' while the upload is on its way.
    const slow = async (route: Route) => {
      if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 700));
      await route.continue();
    };
    await page.route(postsPath, slow);
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && isPath(r, '/api/posts'));
    await form.getByRole('button', { name: 'Create Post' }).click();
    await form.getByRole('button', { name: 'Posting...' }).waitFor();
    const res = await created;
    await page.unroute(postsPath, slow);
    expect(res.status()).toBe(201);
    postId = ((await res.json()) as { _id: string })._id;
    expect(postId).toMatch(/^[0-9a-f-]{36}$/);

    // On to /my-posts: the post with its counts and no comments yet.
    await waitForPath(page, '/my-posts');
    const item = page.getByRole('listitem', { name: CAPTION });
    await item.getByText('No comments yet. Be the first to comment!').waitFor();
    await item.getByRole('img', { name: '0 likes' }).waitFor();
    await item.getByRole('img', { name: '0 comments' }).waitFor();
    await expect
      .poll(() => naturalWidth(item.getByRole('img', { name: 'Photo of your post' })))
      .toBeGreaterThan(0);

    // The feed has it first, with the author's badge and no Chat button on one's own post.
    await page.goto(`${env.url}/posts`);
    const card = postCard(page, author.username, CAPTION);
    await card.waitFor();
    await card.getByText('Veterinarian', { exact: true }).waitFor();
    const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
    await card.getByText(today).waitFor();
    expect(await card.getByRole('button', { name: 'Chat', exact: true }).count()).toBe(0);
    await expect
      .poll(() => naturalWidth(card.getByRole('img', { name: `Photo shared by ${author.username}` })))
      .toBeGreaterThan(0);
  });

  it('B likes the post and comments; a failed like or comment is rolled back', async () => {
    const page = (bPage = await browserFor(reader));
    await openUntil(page, `${env.url}/posts`, () => postCard(page, author.username, CAPTION));
    const card = postCard(page, author.username, CAPTION);

    // Author: name to the public profile; Chat (with its tip) opens the conversation (e2e/chat.e2e.test.ts).
    expect(await card.getByRole('link', { name: author.username }).getAttribute('href')).toBe(
      `/profile/public/${author.id}`,
    );
    const chat = card.getByRole('button', { name: 'Chat', exact: true });
    await chat.hover();
    await page.getByRole('tooltip', { name: 'Start private conversation' }).waitFor();

    // A like that fails goes back; the failure is only logged.
    const like = card.getByTestId('like-button');
    const failLike = (route: Route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{}' });
    const likePath = (url: URL) => url.pathname === `/api/posts/${postId}/like`;
    await page.route(likePath, failLike);
    const failed = page.waitForResponse((r) => isPath(r, `/api/posts/${postId}/like`));
    await like.click();
    await failed;
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe('false');
    expect(await card.getByTestId('like-count').textContent()).toBe('0');
    await page.unroute(likePath, failLike);

    // The real like: red, counted, the server's list kept.
    const liked = page.waitForResponse((r) => isPath(r, `/api/posts/${postId}/like`));
    await like.click();
    expect((await liked).status()).toBe(200);
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true');
    expect(await card.getByTestId('like-count').textContent()).toBe('1');
    expect(await colourOf(like)).toBe(RED);

    // A comment that fails disappears again and its text goes back to the box.
    const box = card.getByRole('textbox', { name: 'Write a comment' });
    const failComment = (route: Route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{}' });
    const commentPath = (url: URL) => url.pathname === `/api/comments/${postId}`;
    await page.route(commentPath, failComment);
    await box.fill(B_COMMENT);
    await card.getByRole('button', { name: 'Post', exact: true }).click();
    await expect.poll(() => box.inputValue()).toBe(B_COMMENT);
    expect(await commentBlock(card, B_COMMENT).count()).toBe(0);
    await page.unroute(commentPath, failComment);

    // Empty text is not sent.
    await box.fill('   ');
    expect(await card.getByRole('button', { name: 'Post', exact: true }).isDisabled()).toBe(true);

    await box.fill(B_COMMENT);
    const commented = page.waitForResponse(
      (r) => r.request().method() === 'POST' && isPath(r, `/api/comments/${postId}`),
    );
    await card.getByRole('button', { name: 'Post', exact: true }).click();
    const res = await commented;
    expect(res.status()).toBe(201);
    bCommentId = ((await res.json()) as { _id: string })._id;
    await commentBlock(card, B_COMMENT).waitFor();
    expect(await box.inputValue()).toBe('');
    await card.getByRole('link', { name: '1 comment' }).waitFor();
  });

  it("A replies to B's comment; B replies to A's reply, nested under it", async () => {
    const page = aPage;
    await openUntil(page, `${env.url}/posts`, () => commentBlock(page, B_COMMENT));
    const card = postCard(page, author.username, CAPTION);
    await commentBlock(card, B_COMMENT).getByRole('button', { name: 'Reply' }).click();
    await replyBox(page).fill(A_REPLY);
    const replied = page.waitForResponse((r) => isPath(r, `/api/comments/${postId}/comments`));
    await page.getByRole('button', { name: 'Send Reply' }).click();
    expect((await replied).status()).toBe(201);
    // The reply sits under B's comment and its box closed.
    await card
      .getByRole('list', { name: `Replies to ${reader.username}` })
      .getByText(A_REPLY)
      .waitFor();
    expect(await replyBox(page).count()).toBe(0);

    const b = bPage;
    await openUntil(b, `${env.url}/posts`, () => commentBlock(b, A_REPLY));
    const bCard = postCard(b, author.username, CAPTION);
    // One reply box at a time.
    await commentBlock(bCard, B_COMMENT).getByRole('button', { name: 'Reply' }).click();
    await replyBox(b).waitFor();
    await commentBlock(bCard, A_REPLY).getByRole('button', { name: 'Reply' }).click();
    expect(await replyBox(b).count()).toBe(1);
    expect(await replyBox(b).getAttribute('aria-label')).toBe(`Reply to ${author.username}`);
    await replyBox(b).fill(B_REPLY);
    const nested = b.waitForResponse((r) => isPath(r, `/api/comments/${postId}/comments`));
    await b.getByRole('button', { name: 'Send Reply' }).click();
    expect((await nested).status()).toBe(201);
    await bCard
      .getByRole('list', { name: `Replies to ${author.username}` })
      .getByText(B_REPLY)
      .waitFor();
    expect(await replyBox(b).count()).toBe(0);
    // Deeper: A's reply (with B's reply inside it) is in the thread of B's comment.
    await bCard
      .getByRole('list', { name: `Replies to ${reader.username}` })
      .getByRole('list', { name: `Replies to ${author.username}` })
      .getByText(B_REPLY)
      .waitFor();
    await bCard.getByRole('link', { name: '3 comments' }).waitFor();
  });

  it("shows two threads on a card: 'View N More Comments' and 'Show Less'", async () => {
    const token = await apiToken(env.url, author);
    for (const content of ['Extra comment one', 'Extra comment two'])
      expect((await apiCall(env.url, 'POST', `/api/comments/${postId}`, token, { content })).status).toBe(
        201,
      );
    const page = bPage;
    await openUntil(page, `${env.url}/posts`, () =>
      page.getByRole('button', { name: 'View 1 More Comments' }),
    );
    const card = postCard(page, author.username, CAPTION);
    await commentBlock(card, 'Extra comment one').waitFor();
    expect(await commentBlock(card, 'Extra comment two').count()).toBe(0);
    await card.getByRole('button', { name: 'View 1 More Comments' }).click();
    await commentBlock(card, 'Extra comment two').waitFor();
    await card.getByRole('button', { name: 'Show Less' }).click();
    await commentBlock(card, 'Extra comment two').waitFor({ state: 'detached' });
  });

  it('B opens the post page: back link, badges, like and comment form', async () => {
    const page = bPage;
    await page.goto(`${env.url}/posts/${postId}`);
    const article = page.getByRole('article', { name: `Post by ${author.username}` });
    await article.getByRole('heading', { name: CAPTION, level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to Posts' }).getAttribute('href')).toBe('/posts');
    await article.getByText('Veterinarian', { exact: true }).waitFor();
    // 'Vet' on the vet's comments, every thread shown.
    await commentBlock(article, A_REPLY).getByText('Vet', { exact: true }).waitFor();
    expect(await commentBlock(article, B_COMMENT).getByText('Vet', { exact: true }).count()).toBe(0);
    await commentBlock(article, 'Extra comment two').waitFor();
    expect(await article.getByTestId('like-button').getAttribute('aria-pressed')).toBe('true');
    await article.getByRole('textbox', { name: 'Write a comment' }).waitFor();
    await expect
      .poll(() => naturalWidth(article.getByRole('img', { name: `Photo shared by ${author.username}` })))
      .toBeGreaterThan(0);

    // The two error texts.
    await page.goto(`${env.url}/posts/00000000-0000-4000-8000-000000000000`);
    await page.getByText('Post not found').waitFor();
    await page.getByRole('link', { name: 'Back to Posts' }).waitFor();
    const broken = (route: Route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{}' });
    await page.route('**/api/posts/*', broken);
    await page.goto(`${env.url}/posts/${postId}`);
    await page.getByText('Failed to load post. Please try again later.').waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: 'Back to Posts' }).waitFor();
    await page.unroute('**/api/posts/*', broken);
  });

  it("B opens the post from its card's picture, caption and date, and at its comments from the count", async () => {
    const page = bPage;
    const postUrl = `/posts/${postId}`;
    const card = () => postCard(page, author.username, CAPTION);
    const fromFeed = async (open: () => Promise<void>) => {
      await openUntil(page, `${env.url}/posts`, card);
      await open();
      await waitForPath(page, postUrl);
      await page.getByRole('heading', { name: CAPTION, level: 1 }).waitFor();
    };
    // Real links (open in a new tab, keyboard), each to the post's page.
    await openUntil(page, `${env.url}/posts`, card);
    expect(await card().getByRole('link', { name: CAPTION }).getAttribute('href')).toBe(postUrl);
    const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
    expect(await card().getByRole('link', { name: today }).getAttribute('href')).toBe(postUrl);
    const picture = card().getByRole('img', { name: `Photo shared by ${author.username}` });
    expect(await picture.evaluate((img) => img.closest('a')?.getAttribute('href'))).toBe(postUrl);
    await fromFeed(() => card().getByRole('link', { name: CAPTION }).click());
    await fromFeed(() =>
      card()
        .getByRole('img', { name: `Photo shared by ${author.username}` })
        .click(),
    );
    await fromFeed(() => card().getByRole('link', { name: today }).click());

    // Liking on the card stays on the feed.
    await openUntil(page, `${env.url}/posts`, card);
    const like = card().getByTestId('like-button');
    const pressed = await like.getAttribute('aria-pressed');
    await like.click();
    await expect.poll(() => like.getAttribute('aria-pressed')).not.toBe(pressed);
    await like.click();
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe(pressed);
    expect(pathnameOf(page)).toBe('/posts');

    // The comment count opens the page at its comments, scrolled there.
    const count = card().getByRole('link', { name: /^\d+ comments?$/ });
    expect(await count.getAttribute('href')).toBe(`${postUrl}#comments`);
    await count.click();
    await waitForPath(page, postUrl);
    expect(new URL(page.url()).hash).toBe('#comments');
    const comments = page.locator('#comments');
    await comments.getByRole('region', { name: 'Comments' }).waitFor();
    await expect
      .poll(() =>
        comments.evaluate((el) => {
          const top = el.getBoundingClientRect().top;
          const { innerHeight, scrollY } = globalThis as unknown as { innerHeight: number; scrollY: number };
          return scrollY > 0 && top >= 0 && top < innerHeight / 2;
        }),
      )
      .toBe(true);
  });

  it("Share copies the post's address (no share sheet here), on the card and on the post page", async () => {
    const page = bPage;
    const context = page.context();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
    // A browser without the Web Share API (as desktop Chromium on Linux): the link goes to the clipboard.
    await context.addInitScript(() => {
      delete (globalThis as unknown as { Navigator: { prototype: { share?: unknown } } }).Navigator.prototype
        .share;
    });
    const clipboard = () =>
      page.evaluate(() =>
        (
          globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
        ).navigator.clipboard.readText(),
      );
    const expected = `${env.url}/posts/${postId}`;

    await openUntil(page, `${env.url}/posts`, () => postCard(page, author.username, CAPTION));
    await page.evaluate(() =>
      (
        globalThis as unknown as { navigator: { clipboard: { writeText(t: string): Promise<void> } } }
      ).navigator.clipboard.writeText(''),
    );
    await postCard(page, author.username, CAPTION).getByRole('button', { name: 'Share post' }).click();
    await page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: 'Link copied' }).waitFor();
    expect(await clipboard()).toBe(expected);
    expect(pathnameOf(page)).toBe('/posts');

    await page.goto(`${env.url}/posts/${postId}`);
    await page.getByRole('heading', { name: CAPTION, level: 1 }).waitFor();
    await page.evaluate(() =>
      (
        globalThis as unknown as { navigator: { clipboard: { writeText(t: string): Promise<void> } } }
      ).navigator.clipboard.writeText(''),
    );
    await page.getByRole('button', { name: 'Share post' }).click();
    await page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: 'Link copied' }).waitFor();
    expect(await clipboard()).toBe(expected);
  });

  it("B opens A's public profile from the post", async () => {
    const page = bPage;
    await page.goto(`${env.url}/posts/${postId}`);
    await page.getByRole('article').getByRole('link', { name: author.username }).first().click();
    await waitForPath(page, `/profile/public/${author.id}`);
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    await page.getByRole('heading', { name: author.username }).waitFor();
    await page.getByText('Veterinarian', { exact: true }).waitFor();
    await page.getByText('0 Adoption Ads').waitFor();
    await page.getByText("This user hasn't written a bio yet.").waitFor();
    const joined = new Date().toLocaleDateString('en-US', { dateStyle: 'long' });
    await page.getByText(`Joined ${joined}`).waitFor();
    await page.getByText('Active Less than an hour ago').waitFor();

    // Adoption Ads is the default tab.
    expect(await page.getByRole('tab', { name: 'Adoption Ads' }).getAttribute('aria-selected')).toBe('true');
    await page.getByText('No Adoption Ads').waitFor();
    await page.getByText(`${author.username} hasn't posted any pets for adoption yet`).waitFor();

    await page.getByRole('tab', { name: 'Posts' }).click();
    const post = page.getByRole('list', { name: `${author.username}'s posts` }).getByRole('listitem');
    await post.getByRole('heading', { name: CAPTION }).waitFor();
    await post.getByRole('img', { name: '1 like' }).waitFor();
    await post.getByRole('img', { name: '5 comments' }).waitFor();
    const short = new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
    await post.getByText(short, { exact: true }).waitFor();

    // Message goes to the chat with A.
    await page.getByRole('button', { name: 'Message' }).click();
    await waitForPath(page, `/chat/${author.id}`);
  });

  it("A cannot delete B's comment (no button, and the API answers 403)", async () => {
    const page = aPage;
    await openUntil(page, `${env.url}/posts/${postId}`, () => commentBlock(page, B_REPLY));
    const own = commentBlock(page, A_REPLY);
    await own.getByRole('button', { name: 'Delete' }).waitFor();
    expect(await commentBlock(page, B_COMMENT).getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await commentBlock(page, B_REPLY).getByRole('button', { name: 'Delete' }).count()).toBe(0);

    const token = await apiToken(env.url, author);
    const refused = await apiCall(env.url, 'DELETE', `/api/comments/${bCommentId}`, token);
    expect(refused.status).toBe(403);
    await page.reload();
    await commentBlock(page, B_COMMENT).waitFor();
  });

  it('B deletes the comment after the confirmation; the thread keeps its replies', async () => {
    const page = bPage;
    await page.goto(`${env.url}/posts/${postId}`);
    const article = page.getByRole('article', { name: `Post by ${author.username}` });
    await commentBlock(article, B_COMMENT).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete comment' });
    await dialog.getByText('Are you sure you want to delete this comment?').waitFor();
    const deleted = page.waitForResponse((r) => isPath(r, `/api/comments/${bCommentId}`));
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    expect((await deleted).status()).toBe(200);
    await commentBlock(article, 'This comment was deleted').waitFor();
    expect(await commentBlock(article, B_COMMENT).count()).toBe(0);
    await article.getByRole('list', { name: 'Replies' }).getByText(A_REPLY).waitFor();
    await article
      .getByRole('list', { name: `Replies to ${author.username}` })
      .getByText(B_REPLY)
      .waitFor();
    await article.getByRole('img', { name: '4 comments' }).waitFor();

    // So the server has it too.
    await page.reload();
    await commentBlock(article, 'This comment was deleted').waitFor();
    await commentBlock(article, A_REPLY).waitFor();
    await commentBlock(article, B_REPLY).waitFor();
    expect(await commentBlock(article, B_COMMENT).count()).toBe(0);
  });

  it("a visitor sees 'Sign in to Post' and can neither like nor comment", async () => {
    const page = await browserFor(null);
    await openUntil(page, `${env.url}/posts`, () => postCard(page, author.username, CAPTION));
    const signIn = page.getByRole('link', { name: 'Sign in to Post' });
    expect(await signIn.getAttribute('href')).toBe('/signin');
    expect(await page.getByRole('button', { name: 'Create Post' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'My Posts' }).count()).toBe(0);
    const card = postCard(page, author.username, CAPTION);
    await card.getByRole('img', { name: '1 like' }).waitFor();
    expect(await card.getByTestId('like-button').count()).toBe(0);
    expect(await card.getByRole('textbox').count()).toBe(0);
    expect(await card.getByRole('button', { name: 'Reply' }).count()).toBe(0);
    expect(await card.getByRole('button', { name: 'Chat', exact: true }).count()).toBe(0);

    // A visitor sees no Message button on a profile (it is for signed-in users).
    await page.goto(`${env.url}/profile/public/${author.id}`);
    await page.getByRole('heading', { name: author.username }).waitFor();
    await page.getByRole('tab', { name: /Adoption Ads/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Message', exact: true }).count()).toBe(0);
    await page.close();
  });

  it('fits /posts on a 360 px screen; keeps what a new user sees as a screenshot', async () => {
    const page = await browserFor(newcomer, { width: 360, height: 780 });
    await openUntil(page, `${env.url}/posts`, () => postCard(page, author.username, CAPTION));
    const card = postCard(page, author.username, CAPTION);
    await expect
      .poll(() => naturalWidth(card.getByRole('img', { name: `Photo shared by ${author.username}` })))
      .toBeGreaterThan(0);
    await card.getByRole('button', { name: 'Chat', exact: true }).waitFor();
    await card.getByRole('button', { name: 'View 1 More Comments' }).click();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    await mkdir(SCREENSHOTS, { recursive: true });
    await page.goto(`${env.url}/posts`);
    await expect
      .poll(() => naturalWidth(card.getByRole('img', { name: `Photo shared by ${author.username}` })))
      .toBeGreaterThan(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'community-posts-360.png'), fullPage: true });

    // The open form and the other pages fit too.
    await page.getByRole('button', { name: 'Create Post' }).click();
    await page.getByRole('form', { name: 'Create post' }).getByLabel('Caption').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    for (const url of [`/posts/${postId}`, `/profile/public/${author.id}`, '/my-posts']) {
      await page.goto(`${env.url}${url}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await horizontalOverflow(page), url).toBeLessThanOrEqual(0);
    }

    // The same new user on a laptop screen.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${env.url}/posts`);
    await postCard(page, author.username, CAPTION).waitFor();
    await expect
      .poll(() => naturalWidth(card.getByRole('img', { name: `Photo shared by ${author.username}` })))
      .toBeGreaterThan(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'community-posts-new-user.png'), fullPage: true });
    expect(pathnameOf(page)).toBe('/posts');
  });

  it('C shares on /createpost, edits the caption and deletes the post on /my-posts', async () => {
    const page = await browserFor(newcomer);
    const caption = `Our first day with Luna ${uniqueName('luna')}`;
    await page.goto(`${env.url}/createpost`);
    await page.getByRole('heading', { name: 'Create Post', level: 1 }).waitFor();
    await page.getByLabel('Caption').fill(caption);
    await page
      .getByLabel('Image', { exact: true })
      .setInputFiles({ name: 'luna.png', mimeType: 'image/png', buffer: makePng(120, 120) });
    await page.getByRole('button', { name: 'Create Post' }).click();
    await waitForPath(page, '/posts');
    // First in the feed.
    const first = page.getByRole('article').first();
    await first.getByText(caption).waitFor();
    expect(await first.getAttribute('aria-label')).toBe(`Post by ${newcomer.username}`);

    await page.goto(`${env.url}/my-posts`);
    const listed = page.getByRole('listitem', { name: caption });
    // While it is edited the item is named by its editor: hold on to it by its post id.
    const item = page.locator(`li[data-post-id="${await listed.getAttribute('data-post-id')}"]`);
    await item.getByRole('button', { name: 'Edit Caption' }).click();
    const edited = `${caption} (she loves the garden)`;
    await item.getByRole('textbox', { name: 'Caption', exact: true }).fill(edited);
    await item.getByRole('button', { name: 'Save Changes' }).click();
    const after = page.getByRole('listitem', { name: edited });
    await after.waitFor();
    await page.reload();
    await after.waitFor();

    await after.getByRole('button', { name: 'Delete Post' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete post' });
    await dialog.getByText('Are you sure you want to delete this post?').waitFor();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('No posts yet. Share your first pet moment!').waitFor();

    // The profile's My Posts view is the same list.
    await page.goto(`${env.url}/profile?view=myposts`);
    await page.getByRole('heading', { name: 'My Posts', level: 2 }).waitFor();
    await page.getByText('No posts yet. Share your first pet moment!').waitFor();
  });

  it('raised no uncaught errors in any page', () => {
    expect(browsers.flatMap((b) => b.pageErrors)).toEqual([]);
  });
});

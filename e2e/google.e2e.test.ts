import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGoogleTestKeys, GOOGLE_TEST_CLIENT_ID, type GoogleTestKeys } from '@pawhaven/testing';
import { startE2eApp, uniqueName, type E2eApp } from './support/app';
import { launchBrowser, storedSession, waitForPath, type Browser } from './support/browser';
import { fakeGoogleIdentity } from './support/google';

/** Google sign-in in the browser: the user-type dialog for a new account, then plain sign-in. */

let env: E2eApp;
let browser: Browser & { pageErrors: string[] };
let google: GoogleTestKeys;

beforeAll(async () => {
  google = await createGoogleTestKeys();
  env = await startE2eApp({ GOOGLE_CLIENT_ID: GOOGLE_TEST_CLIENT_ID }, { googleKeys: google.keys });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await env?.stop();
});

describe('Google sign-in', () => {
  const email = `${uniqueName('goog')}@gmail.com`;

  it('asks a new Google user how they register, then signs them in', async () => {
    const credential = await google.sign({ email, name: 'Biscuit Khan' });
    const page = await browser.newPage();
    await fakeGoogleIdentity(page, () => credential);
    await page.goto(`${env.url}/signup`);
    await page.getByRole('button', { name: 'Continue with Google' }).click();

    const dialog = page.getByRole('dialog', { name: 'Welcome, Biscuit Khan!' });
    await dialog.getByText('How would you like to register?').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).waitFor();
    await dialog.getByRole('button', { name: 'Veterinarian' }).click();

    await waitForPath(page, '/');
    await page.getByRole('button', { name: 'Hi, Biscuit Khan' }).waitFor();
    const stored = await storedSession(page);
    expect(JSON.parse(stored.session.user ?? stored.local.user ?? '{}')).toMatchObject({
      email,
      isVeterinarian: true,
    });
    await page.close();
  });

  it('signs a returning Google user straight in', async () => {
    const credential = await google.sign({ email, name: 'Biscuit Khan' });
    const page = await browser.newPage();
    await fakeGoogleIdentity(page, () => credential);
    await page.goto(`${env.url}/signin`);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await waitForPath(page, '/');
    await page.getByRole('button', { name: 'Hi, Biscuit Khan' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.close();
  });

  it('shows no Google button when the server has no Google client id', async () => {
    const plain = await startE2eApp();
    try {
      const page = await browser.newPage();
      await page.goto(`${plain.url}/signin`);
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByRole('button', { name: 'Continue with Google' }).count()).toBe(0);
      await page.close();
    } finally {
      await plain.stop();
    }
  });

  it('raised no uncaught errors in any page', () => {
    expect(browser.pageErrors).toEqual([]);
  });
});

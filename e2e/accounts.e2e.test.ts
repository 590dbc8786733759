import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '@pawhaven/contracts';
import { startE2eApp, uniqueName, type E2eApp } from './support/app';
import {
  chooseAccountMenu,
  launchBrowser,
  pathnameOf,
  sessionItem,
  storedSession,
  waitForPath,
  type Browser,
  type PageGlobals,
} from './support/browser';
import { createVerifiedUser } from './support/adoption';
import { readCode, readMailbox } from './support/mailbox';
import { makePng } from './support/png';

/**
 * Accounts in a real browser against the whole product: sign-up with the mailed code, sign-in, profile edits, profile
 * picture, password change, sign-out, password reset, the sign-up validation texts, phone width, and admin confinement.
 */

const PASSWORD = 'Purr!fect2024';
const CHANGED_PASSWORD = 'Wag&Tail2025';
const RESET_PASSWORD = 'Fetch#Ball2026';
const SCREENSHOTS = path.resolve(import.meta.dirname, '../test-results');

let env: E2eApp;
let browser: Browser & { pageErrors: string[] };

beforeAll(async () => {
  env = await startE2eApp();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await env?.stop();
});

const toast = (page: Page, text: string) =>
  page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: text });

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${env.url}/signin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('an account from sign-up to password reset', () => {
  const username = uniqueName('whiskers');
  const email = `${username}@gmail.com`;

  it('signs up, verifies the mailed code and lands on sign-in', async () => {
    const page = await browser.newPage();
    await page.goto(`${env.url}/signup`);
    await page.getByRole('heading', { name: 'Create Your Account' }).waitFor();
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByText('Password meets all requirements').waitFor();
    await page.getByLabel('Veterinarian').check();
    const sentAfter = new Date(Date.now() - 1000);
    await page.getByRole('button', { name: 'Sign Up' }).click();

    await waitForPath(page, '/verify-registration');
    await page.getByRole('heading', { name: 'Verify Your Email' }).waitFor();
    const emailField = page.getByLabel('Email');
    expect(await emailField.inputValue()).toBe(email);
    expect(await emailField.isDisabled()).toBe(true);
    expect(await page.getByRole('timer').textContent()).toMatch(/^0[12]:\d\d$/);
    expect(await page.getByRole('button', { name: 'Resend OTP' }).isDisabled()).toBe(true);

    // A wrong code is refused with the server's text and the page keeps its state.
    await page.getByLabel('Verification Code').fill('000000');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: /code/i }).waitFor();

    const otp = await readCode(env.url, email, { subject: /verification/i, since: sentAfter });
    await page.getByLabel('Verification Code').fill(otp);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.getByText('Email verified successfully! Redirecting to sign in...').waitFor();
    await waitForPath(page, '/signin', 5000);
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await page.close();
  });

  it('refuses a wrong password, then signs in and greets the user', async () => {
    const page = await browser.newPage();
    await signIn(page, email, 'Not!theRight1');
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(email);

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await waitForPath(page, '/');
    await page.getByRole('button', { name: `Hi, ${username}` }).waitFor();
    // The bell opens the notifications panel (its 'View all' leads to /notifications).
    await page.getByRole('button', { name: /^Notifications/ }).click();
    expect(await page.getByRole('link', { name: 'View all' }).getAttribute('href')).toBe('/notifications');
    await page.keyboard.press('Escape');

    // Without remember-me the session lives in sessionStorage, and the password is never stored.
    const stored = await storedSession(page);
    expect(stored.session.token).toBeTruthy();
    expect(stored.local.token).toBeNull();
    expect(stored.everything).not.toContain(PASSWORD);
    await page.close();
  });

  let page: Page;

  it('edits the profile and survives an expired access token', async () => {
    page = await browser.newPage();
    await signIn(page, email, PASSWORD);
    await waitForPath(page, '/');
    await chooseAccountMenu(page, 'My Profile');
    await waitForPath(page, '/profile');
    await page.getByRole('heading', { name: username }).waitFor();
    await page.getByText('Veterinarian', { exact: true }).first().waitFor();

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    expect(await page.getByLabel('Username').isDisabled()).toBe(true);
    expect(await page.getByLabel('Email').isDisabled()).toBe(true);

    // An invalid phone is explained next to the field and nothing typed is lost.
    await page.getByLabel('Phone').fill('12');
    await page.getByLabel('City').fill('Lahore');
    await page.getByLabel('About').fill('I foster kittens and senior dogs.');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Please enter a valid phone number').waitFor();
    expect(await page.getByLabel('City').inputValue()).toBe('Lahore');

    await page.getByLabel('Phone').fill('+92 300 1234567');
    // Read-your-writes: the profile is read again after the save, naming the save's position.
    const reread = page.waitForRequest((r) => r.method() === 'GET' && r.url().endsWith('/api/auth/profile'));
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Profile updated successfully!').waitFor();
    expect((await reread).headers()['x-consistent-after']).toMatch(/^\d+$/);
    await page.getByText('I foster kittens and senior dogs.').waitFor();
    await page.getByText('+92 300 1234567').waitFor();

    // A broken access token is renewed with the refresh cookie; the profile still loads from the server.
    await page.evaluate(() =>
      (globalThis as unknown as PageGlobals).sessionStorage.setItem('token', 'expired-or-garbage'),
    );
    const renewed = page.waitForResponse((r) => r.url().endsWith('/api/auth/refresh') && r.status() === 200);
    await page.reload();
    await renewed;
    await page.getByText('Lahore').first().waitFor();
    expect((await storedSession(page)).session.token).not.toBe('expired-or-garbage');
  });

  it('uploads a profile picture and removes it', async () => {
    await page
      .getByLabel('Profile image')
      .setInputFiles({ name: 'paw.png', mimeType: 'image/png', buffer: makePng() });
    await toast(page, 'Profile image uploaded successfully!').waitFor();
    const img = page.getByTestId('profile-avatar').locator('img');
    await img.waitFor();
    expect(await img.getAttribute('src')).toMatch(/^\/api\/images\/[a-f0-9]+$/);
    expect(await img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth > 0)).toBe(
      true,
    );

    // Not an image: refused in the browser with its fixed text.
    await page
      .getByLabel('Profile image')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
    await toast(page, 'Please select a valid image file').waitFor();

    await page.getByRole('button', { name: 'Remove Image' }).click();
    await toast(page, 'Profile image removed successfully!').waitFor();
    await page.getByTestId('profile-avatar').locator('img').waitFor({ state: 'detached' });
    expect(await page.getByTestId('profile-avatar').textContent()).toBe(username[0]!.toUpperCase());
  });

  it('changes the password and signs out', async () => {
    await page.getByRole('link', { name: 'Security Settings' }).click();
    await page.getByLabel('Current Password').fill(PASSWORD);
    await page.getByLabel('New Password', { exact: true }).fill(CHANGED_PASSWORD);
    await page.getByLabel('Confirm New Password').fill('Something!Else9');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('New passwords do not match').waitFor();

    await page.getByLabel('Confirm New Password').fill(CHANGED_PASSWORD);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await toast(page, 'Password changed successfully!').waitFor();
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor(); // back on the profile view

    await chooseAccountMenu(page, 'Sign Out');
    await waitForPath(page, '/signin');
    await toast(page, 'Signed out successfully!').waitFor();
    await page.getByRole('link', { name: 'Sign In' }).first().waitFor();
    const stored = await storedSession(page);
    expect([stored.local.token, stored.local.user, stored.session.token, stored.session.user]).toEqual([
      null,
      null,
      null,
      null,
    ]);

    // The revoked session cannot be renewed: /profile asks to log in and sends the visitor to /signin.
    await page.goto(`${env.url}/profile`);
    await page.getByText('No user data found. Please log in.').waitFor();
    await waitForPath(page, '/signin');
    await page.close();
  });

  it('resets a forgotten password with the mailed code and signs in with it', async () => {
    const p = await browser.newPage();
    await p.goto(`${env.url}/signin`);
    await p.getByRole('link', { name: 'Forgot Password?' }).click();
    const dialog = p.getByRole('dialog', { name: 'Forgot Password' });
    await dialog.getByLabel('Email').fill(`${username}@yahoo.com`);
    await dialog.getByRole('button', { name: 'Send Code' }).click();
    await dialog.getByText('Please enter a valid Gmail address to reset password.').waitFor();

    await dialog.getByLabel('Email').fill(email);
    const sentAfter = new Date(Date.now() - 1000);
    await dialog.getByRole('button', { name: 'Send Code' }).click();
    await waitForPath(p, '/verify-code');
    await p.getByRole('heading', { name: 'Verify Code' }).waitFor();
    expect(await sessionItem(p, 'resetEmail')).toBe(email);

    await p.getByRole('button', { name: 'Verify Code' }).click();
    await p.getByText('Please enter the verification code.').waitFor();
    const code = await readCode(env.url, email, { subject: /reset/i, since: sentAfter });
    await p.getByLabel('Verification Code').fill(code);
    await p.getByRole('button', { name: 'Verify Code' }).click();
    await waitForPath(p, '/reset-password');
    await p.getByRole('heading', { name: 'Reset Password' }).waitFor();
    expect(await sessionItem(p, 'resetCode')).toBe(code);

    await p.getByLabel('New Password', { exact: true }).fill('short');
    await p
      .getByText(
        'Password must have: At least 8 characters, One uppercase letter, One number, One special character',
      )
      .waitFor();
    await p.getByLabel('New Password', { exact: true }).fill(RESET_PASSWORD);
    await p.getByText('Password meets all requirements').waitFor();
    await p.getByLabel('Confirm New Password').fill(RESET_PASSWORD);
    await p.getByRole('button', { name: 'Reset Password' }).click();
    await p.getByText('Password reset successfully! You can now sign in.').first().waitFor();
    await waitForPath(p, '/signin', 5000);

    // The old passwords no longer work; the new one does.
    await signIn(p, email, CHANGED_PASSWORD);
    await p.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await p.getByLabel('Password', { exact: true }).fill(RESET_PASSWORD);
    await p.getByRole('button', { name: 'Sign in', exact: true }).click();
    await waitForPath(p, '/');
    await p.getByRole('button', { name: `Hi, ${username}` }).waitFor();
    await p.close();
  });
});

describe('email verification countdown', () => {
  it('expires after 120 s, then Resend OTP restarts it, clears the code and shows a notice for 5 s', async () => {
    const username = uniqueName('biscuit');
    const email = `${username}@gmail.com`;
    const page = await browser.newPage();
    await page.clock.install();
    await page.goto(`${env.url}/signup`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByRole('heading', { name: 'Verify Your Email' }).waitFor();
    const timer = page.getByRole('timer');
    expect(await timer.textContent()).toBe('02:00');

    await page.clock.fastForward('01:05');
    await expect.poll(() => timer.textContent()).toBe('00:55');
    await page.getByLabel('Verification Code').fill('123');
    await page.clock.fastForward('01:00');
    await expect.poll(() => timer.textContent()).toBe('Expired');
    expect(await page.getByRole('button', { name: 'Verify', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Resend OTP' }).isEnabled()).toBe(true);

    await page.getByRole('button', { name: 'Resend OTP' }).click();
    const notice = page.getByText('New OTP sent successfully! Check your email.');
    await notice.waitFor();
    expect(await timer.textContent()).toBe('02:00');
    expect(await page.getByLabel('Verification Code').inputValue()).toBe('');
    expect(await page.getByRole('button', { name: 'Verify', exact: true }).isEnabled()).toBe(true);
    await page.clock.fastForward(5100);
    await notice.waitFor({ state: 'detached' });
    await page.close();

    // Signing in before verifying (here a new tab, as on another device) mails a new code and offers the
    // verification page for that email, which the sign-in made able to verify the sign-up in this tab.
    const later = await browser.newPage();
    const signedInAfter = new Date(Date.now() - 1000);
    await signIn(later, email, PASSWORD);
    await later.getByText('Please verify your email before signing in. A new code has been sent.').waitFor();
    await later.getByRole('button', { name: 'Verify email' }).click();
    await later.getByRole('heading', { name: 'Verify Your Email' }).waitFor();
    expect(await later.getByLabel('Email').inputValue()).toBe(email);
    const otp = await readCode(env.url, email, { subject: /verification/i, since: signedInAfter });
    await later.getByLabel('Verification Code').fill(otp);
    await later.getByRole('button', { name: 'Verify', exact: true }).click();
    await later.getByText('Email verified successfully! Redirecting to sign in...').waitFor();
    await later.close();
  });
});

describe('a sign-up bound to the tab that made it', () => {
  it('a newer sign-up of the address voids the first one: its page says so and offers to sign up again', async () => {
    const email = `${uniqueName('shared')}@gmail.com`;
    const signUp = async (page: Page, username: string, password: string) => {
      await page.goto(`${env.url}/signup`);
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await page.getByRole('heading', { name: 'Verify Your Email' }).waitFor();
    };
    const first = await browser.newPage();
    await signUp(first, uniqueName('first'), PASSWORD);
    // Someone else (another tab) signs the same address up with their own name and password.
    const other = await browser.newPage();
    const sentAfter = new Date(Date.now() - 1000);
    await signUp(other, uniqueName('other'), CHANGED_PASSWORD);
    const code = await readCode(env.url, email, { subject: /verification/i, since: sentAfter });

    // The newest code in the inbox cannot verify the first tab's sign-up into the other password.
    await first.getByLabel('Verification Code').fill(code);
    await first.getByRole('button', { name: 'Verify', exact: true }).click();
    await first
      .getByRole('alert')
      .filter({ hasText: 'This sign-up was replaced by a newer sign-up for this email.' })
      .waitFor();
    await first.getByRole('button', { name: 'Sign up again' }).click();
    await waitForPath(first, '/signup');

    // A tab that did not sign up (no token) is sent to sign in with the password instead.
    const stranger = await browser.newPage();
    await stranger.goto(`${env.url}/verify-registration`);
    await stranger.getByLabel('Email').fill(email);
    await stranger.getByLabel('Verification Code').fill(code);
    await stranger.getByRole('button', { name: 'Verify', exact: true }).click();
    await stranger
      .getByRole('alert')
      .filter({ hasText: 'Please sign in with the password you chose to verify your email in this browser.' })
      .waitFor();
    await stranger.getByRole('button', { name: 'Sign in', exact: true }).click();
    await waitForPath(stranger, '/signin');
    expect(await stranger.getByLabel('Email').inputValue()).toBe(email);
    for (const p of [first, other, stranger]) await p.close();
  });
});

describe('answers that do not tell whether an address has an account', () => {
  it('a sign-up with a registered address goes on to verification like any, and the owner is mailed', async () => {
    const owner = await createVerifiedUser(env.url, 'owner');
    const page = await browser.newPage();
    const sentAfter = new Date(Date.now() - 1000);
    await page.goto(`${env.url}/signup`);
    await page.getByLabel('Username').fill(uniqueName('someone'));
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await waitForPath(page, '/verify-registration');
    await page.getByRole('heading', { name: 'Verify Your Email' }).waitFor();
    await expect
      .poll(async () =>
        (await readMailbox(env.url, owner.email)).some(
          (m) => /tried to sign up/.test(m.subject) && new Date(m.sentAt) >= sentAfter,
        ),
      )
      .toBe(true);
    await page.close();
  });

  it('Forgot Password with an address nobody has goes on to the code, which is then invalid', async () => {
    const page = await browser.newPage();
    await page.goto(`${env.url}/signin`);
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forgot Password' });
    await dialog.getByLabel('Email').fill(`${uniqueName('nobody')}@gmail.com`);
    await dialog.getByRole('button', { name: 'Send Code' }).click();
    await waitForPath(page, '/verify-code');
    await page.getByText(ACCOUNT_MESSAGES.resetCodeSent).waitFor();
    await page.getByLabel('Verification Code').fill('123456');
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid verification code' }).waitFor();
    await page.close();
  });
});

describe('sign-up validation', () => {
  it('explains a wrong domain and a weak password and keeps Sign Up disabled', async () => {
    const page = await browser.newPage();
    await page.goto(`${env.url}/signup`);
    const submit = page.getByRole('button', { name: 'Sign Up' });

    await page.getByLabel('Email').fill('luna@yahoo.com');
    await page.getByText('Please enter a valid Gmail address').waitFor();
    expect(await submit.isDisabled()).toBe(true);

    await page.getByLabel('Email').fill('luna@gmail.com');
    await page.getByText('Please enter a valid Gmail address').waitFor({ state: 'detached' });
    expect(await submit.isEnabled()).toBe(true);

    await page.getByLabel('Password', { exact: true }).fill('kitten');
    await page
      .getByText(
        'Password must have: At least 8 characters, One uppercase letter, One number, One special character',
      )
      .waitFor();
    expect(await submit.isDisabled()).toBe(true);

    await page.getByLabel('Password', { exact: true }).fill('Kitten12');
    await page.getByText('Password must have: One special character').waitFor();
    expect(await submit.isDisabled()).toBe(true);

    await page.getByLabel('Password', { exact: true }).fill('Kitten12!');
    await page.getByText('Password meets all requirements').waitFor();
    expect(await submit.isEnabled()).toBe(true);

    // A missing username is reported at submit and the other fields are kept.
    await submit.click();
    await page.getByText('Username is required').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe('luna@gmail.com');
    expect(pathnameOf(page)).toBe('/signup');
    await page.close();
  });

  it('renders /signup at phone width without horizontal overflow', async () => {
    const page = await browser.newPage({ width: 375, height: 812 });
    await page.goto(`${env.url}/signup`);
    await page.getByRole('button', { name: 'Sign Up' }).waitFor();
    await mkdir(SCREENSHOTS, { recursive: true });
    const shot = await page.screenshot({ path: path.join(SCREENSHOTS, 'signup-375.png'), fullPage: true });
    expect(shot.length).toBeGreaterThan(1000);
    const { scrollWidth, clientWidth } = await page.evaluate(() => {
      const { documentElement } = (globalThis as unknown as PageGlobals).document;
      return { scrollWidth: documentElement.scrollWidth, clientWidth: documentElement.clientWidth };
    });
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);

    // The navigation moves into a drawer on a phone.
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Adoption' }).waitFor();
    await page.close();
  });
});

describe('routes and admin confinement', () => {
  it('redirects /login to /signin and shows a friendly page for sections on their way', async () => {
    const page = await browser.newPage();
    await page.goto(`${env.url}/login`);
    await waitForPath(page, '/signin');
    await page.goto(`${env.url}/clinics`);
    await page.getByRole('heading', { name: 'Veterinary Clinics & Healthcare', level: 1 }).waitFor();
    expect(await page.locator('footer').count()).toBe(1);
    // The footer is hidden on the chat screens.
    await page.goto(`${env.url}/chat/someone`);
    await page.getByText('You need to sign in to access chat').waitFor();
    expect(await page.locator('footer').count()).toBe(0);
    // Visitors entering the dashboard go home.
    await page.goto(`${env.url}/admin-dashboard`);
    await waitForPath(page, '/');
    await page.close();
  });

  it('keeps an administrator inside the dashboard, without the community layout', async () => {
    const admin = env.app.adminCredentials;
    expect(admin, 'this start created the admin account').not.toBeNull();
    const page = await browser.newPage();
    await signIn(page, admin!.email, admin!.password);
    await waitForPath(page, '/admin-dashboard');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    expect(await page.locator('footer').count()).toBe(0);
    // Admin sessions are always persistent.
    expect((await storedSession(page)).local.token).toBeTruthy();

    await page.goto(`${env.url}/posts`);
    await waitForPath(page, '/admin-dashboard');

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await waitForPath(page, '/signin');
    await page.close();
  });

  it('raised no uncaught errors in any page', () => {
    expect(browser.pageErrors).toEqual([]);
  });
});

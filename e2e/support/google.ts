import type { Page } from 'playwright-core';

/**
 * Google Identity Services, faked in the page: the GSI script request is answered with a tiny stand-in whose
 * button hands the app the given credential (an ID token signed by the test's own key, which the server was
 * started to trust). Everything after the button — the app's calls, the dialog, the session — is real.
 */
export async function fakeGoogleIdentity(page: Page, credential: () => string) {
  await page.route('https://accounts.google.com/gsi/client', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/javascript',
      body: `
        window.google = { accounts: { id: {
          initialize(options) { window.__gsiOptions = options; },
          renderButton(element) {
            const button = document.createElement('button');
            button.type = 'button';
            button.textContent = 'Continue with Google';
            button.addEventListener('click', () =>
              window.__gsiOptions.callback({ credential: ${JSON.stringify(credential())}, select_by: 'btn' }));
            element.appendChild(button);
          },
        } } };`,
    }),
  );
}

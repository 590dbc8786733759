/** Read-your-writes: commands answer with `position`; the next reads send it back in this header. */
export const CONSISTENT_AFTER_HEADER = 'X-Consistent-After';

export type ApiError = { message: string; error: string; fields?: Record<string, string> };

export const API_ROOT = '/api';
export const AUTH_ROOT = '/api/auth';
export const ADMIN_ROOT = '/api/admin';

/**
 * What the frontend build writes where each page's Content-Security-Policy nonce goes (vite's `html.cspNonce`: the
 * nonce attributes of index.html's scripts, styles and stylesheets, and its `csp-nonce` meta); the gateway puts a
 * fresh nonce there for every page it serves.
 */
export const CSP_NONCE_PLACEHOLDER = 'PAWHAVEN_CSP_NONCE';

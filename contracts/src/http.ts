/** Read-your-writes: commands answer with `position`; the next reads send it back in this header. */
export const CONSISTENT_AFTER_HEADER = 'X-Consistent-After';

export type ApiError = { message: string; error: string; fields?: Record<string, string> };

export const API_ROOT = '/api';
export const AUTH_ROOT = '/api/auth';
export const ADMIN_ROOT = '/api/admin';

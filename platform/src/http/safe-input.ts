import type { Request, RequestHandler } from 'express';
import { badRequest } from '../errors';

/**
 * Text PostgreSQL cannot store (NUL) or that is not valid Unicode (a lone UTF-16 surrogate) is refused at the
 * door, before any route, validation or database sees it. Every route of both apps goes through here.
 */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSAFE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const isUnsafeText = (s: string) => UNSAFE.test(s);

/** The path of the first string (or object key) in `value` that is unsafe, or null. */
export function findUnsafeText(value: unknown, at = '', depth = 0): string | null {
  if (typeof value === 'string') return isUnsafeText(value) ? at || 'value' : null;
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  if (Buffer.isBuffer(value)) return null;
  for (const [key, inner] of Object.entries(value)) {
    const here = at ? `${at}.${key}` : key;
    if (isUnsafeText(key)) return here;
    const found = findUnsafeText(inner, here, depth + 1);
    if (found) return found;
  }
  return null;
}

export const unsafeTextMessage = (field: string) =>
  `'${field}' contains characters that are not allowed (a NUL character or invalid Unicode)`;

/** Refuses a parsed multipart body or any other object holding unsafe text (used after multer, too). */
export function assertSafeInput(value: unknown, where: string): void {
  const field = findUnsafeText(value);
  if (field) throw badRequest(unsafeTextMessage(where ? `${where}.${field}` : field));
}

/** Decodes the path segment by segment: malformed escapes and unsafe text are refused with a 400. */
function checkPath(req: Request): void {
  const pathname = req.originalUrl.split('?')[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    throw badRequest('The address contains a malformed %-escape');
  }
  if (isUnsafeText(decoded)) throw badRequest(unsafeTextMessage('path'));
}

/** Express middleware: path, query string, JSON body and cookies. Multipart fields are checked by the upload. */
export const rejectUnsafeInput: RequestHandler = (req, _res, next) => {
  try {
    checkPath(req);
    // The parsed query names the field; the raw one catches escapes the parser hides (they become U+FFFD).
    assertSafeInput(req.query, 'query');
    const query = req.originalUrl.includes('?')
      ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1)
      : '';
    if (query) {
      try {
        if (isUnsafeText(decodeURIComponent(query.replace(/\+/g, ' '))))
          throw badRequest(unsafeTextMessage('query'));
      } catch (e) {
        if (!(e instanceof URIError)) throw e;
        throw badRequest('The query string contains a malformed %-escape');
      }
    }
    assertSafeInput(req.body, '');
    assertSafeInput((req as Request & { cookies?: unknown }).cookies, 'cookie');
    next();
  } catch (error) {
    next(error);
  }
};

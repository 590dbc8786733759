import type { Request, RequestHandler } from 'express';
import { badRequest } from '../errors';

/**
 * Text PostgreSQL cannot store (NUL) or that is not valid Unicode (a lone UTF-16 surrogate) is refused at the
 * door, before any route, validation or database sees it. Every route of both apps goes through here.
 */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSAFE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const isUnsafeText = (s: string) => UNSAFE.test(s);

/** How deep objects and arrays may nest in a request (ours nest three levels at most). */
export const MAX_INPUT_DEPTH = 32;

/** What is wrong with a value: the path of the first unsafe string (or object key), or of the level too deep. */
export type InputProblem = { unsafe: string } | { tooDeep: string };

/**
 * The first problem in `value`, walked depth first (the order a recursive walk would take), or null. The walk keeps
 * its own stack and stops descending past MAX_INPUT_DEPTH, so no input can overflow the call stack: not here, and
 * not in anything that walks the value after it (a fingerprint's JSON.stringify, zod).
 */
export function findInputProblem(value: unknown): InputProblem | null {
  const stack: { value: unknown; at: string; depth: number; key?: string }[] = [{ value, at: '', depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (item.key !== undefined && isUnsafeText(item.key)) return { unsafe: item.at };
    const v = item.value;
    if (typeof v === 'string') {
      if (isUnsafeText(v)) return { unsafe: item.at || 'value' };
      continue;
    }
    if (v === null || typeof v !== 'object' || Buffer.isBuffer(v)) continue;
    if (item.depth >= MAX_INPUT_DEPTH) return { tooDeep: item.at };
    const entries = Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i]!;
      stack.push({ value: inner, at: item.at ? `${item.at}.${key}` : key, depth: item.depth + 1, key });
    }
  }
  return null;
}

/** The path of the first string (or object key) in `value` that is unsafe, or null. */
export function findUnsafeText(value: unknown): string | null {
  const problem = findInputProblem(value);
  return problem && 'unsafe' in problem ? problem.unsafe : null;
}

export const unsafeTextMessage = (field: string) =>
  `'${field}' contains characters that are not allowed (a NUL character or invalid Unicode)`;

export const tooDeepMessage = (where: string) =>
  `${where ? `'${where}'` : 'The request body'} is nested too deeply: at most ${MAX_INPUT_DEPTH} levels of objects and arrays are accepted`;

/**
 * Refuses a parsed multipart body or any other object holding unsafe text or nested too deeply (used after multer,
 * and by the socket gateway, too).
 */
export function assertSafeInput(value: unknown, where: string): void {
  const problem = findInputProblem(value);
  if (!problem) return;
  if ('tooDeep' in problem) throw badRequest(tooDeepMessage(where));
  const field = problem.unsafe;
  throw badRequest(unsafeTextMessage(where ? `${where}.${field}` : field));
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

/**
 * Express middleware: path, query string, JSON body and cookies. Multipart fields are checked by the upload. It is
 * the first to walk a parsed body (JSON.parse itself does not recurse), so a body nested too deeply is refused here.
 */
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

import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { CSP_NONCE_PLACEHOLDER } from '@pawhaven/contracts';

/** Google Identity Services: its documented needs (script, button frame, calls, stylesheet). */
const GSI = 'https://accounts.google.com/gsi/';

const entities: Record<string, string> = {
  '&quot;': '"',
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
  '&amp;': '&',
};

/**
 * The `'sha256-…'` sources of the style attributes written in `html` (the prerendered first screens of index.html
 * carry a few, such as `--Paper-shadow: none;`): with `'unsafe-hashes'` exactly these are allowed, no other.
 */
export function styleAttributeHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, raw] of html.matchAll(/\sstyle="([^"]*)"/g)) {
    const value = raw!.replace(/&(quot|#39|lt|gt|amp);/g, (e) => entities[e]!);
    hashes.add(`'sha256-${createHash('sha256').update(value).digest('base64')}'`);
  }
  return [...hashes].sort();
}

export type ContentSecurity = {
  /** A fresh nonce for the response (`res.locals.cspNonce`), then helmet's headers with the policy. */
  handlers: RequestHandler[];
  /** The built index.html for this response, its nonce in place; null when the frontend is not built. */
  page(res: Response): string | null;
};

/**
 * The Content-Security-Policy, as tight as the app allows. Scripts: this site's files only (and Google's client).
 * Styles: this site's files and `<style>` elements carrying the page's nonce — index.html's own and every one
 * emotion (MUI, react-admin) or Google's client adds, as the app hands them the nonce — plus Google's stylesheet;
 * style attributes only those index.html is built with (hashes); styles React sets go through the CSSOM, which CSP
 * does not restrict. Pictures: this site's, previews of files being uploaded (`blob:`), and the https hosts
 * directory entries use (`imageOrigins`); no `data:`, no other host. Fonts: this site's.
 */
export function contentSecurity(opts: {
  frontendDir: string;
  imageOrigins: readonly string[];
  production: boolean;
}): ContentSecurity {
  let indexHtml: string | null = null;
  try {
    indexHtml = readFileSync(path.join(opts.frontendDir, 'index.html'), 'utf8');
  } catch {
    // Not built: every page says so.
  }
  const nonceOf = (res: ServerResponse) => (res as Response).locals.cspNonce as string;
  const nonce = (_req: IncomingMessage, res: ServerResponse) => `'nonce-${nonceOf(res)}'`;
  const styleAttributes = ["'unsafe-hashes'", ...styleAttributeHashes(indexHtml ?? '')];
  const styleElements = ["'self'", nonce, `${GSI}style`];
  return {
    handlers: [
      (_req, res, next) => {
        res.locals.cspNonce = randomBytes(16).toString('base64');
        next();
      },
      helmet({
        contentSecurityPolicy: {
          directives: {
            'script-src': ["'self'", `${GSI}client`],
            'frame-src': ["'self'", GSI],
            'connect-src': ["'self'", GSI],
            'style-src-elem': styleElements,
            'style-src-attr': styleAttributes,
            // For browsers without the two above.
            'style-src': [...styleElements, ...styleAttributes],
            'img-src': ["'self'", 'blob:', ...opts.imageOrigins],
            'font-src': ["'self'"],
            'upgrade-insecure-requests': opts.production ? [] : null,
          },
        },
        crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
        hsts: opts.production,
      }),
    ],
    page: (res) => indexHtml?.replaceAll(CSP_NONCE_PLACEHOLDER, nonceOf(res)) ?? null,
  };
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import compression from 'compression';
import express from 'express';
import { contentSecurity } from './content-security';

/** Where `npm run build` puts the frontend. */
export const FRONTEND_DIR = path.resolve(import.meta.dirname, '../../../frontend/dist');

export type FrontendPages = {
  /** For every response, API answers included: a nonce and the security headers with the policy. */
  security: express.RequestHandler[];
  /** The built frontend: its files, and index.html (with the response's nonce) for every route of the app. */
  pages: express.Router;
};

/**
 * The pages of the single-page app with their Content-Security-Policy (content-security.ts). Served by whichever
 * process faces the browser: the gateway in one process, the query-api nodes behind nginx.
 */
export function frontendPages(opts: {
  frontendDir?: string;
  imageOrigins: readonly string[];
  production: boolean;
}): FrontendPages {
  const frontendDir = opts.frontendDir ?? FRONTEND_DIR;
  const security = contentSecurity({
    frontendDir,
    imageOrigins: opts.imageOrigins,
    production: opts.production,
  });
  const pages = express.Router();
  const indexPage = (res: express.Response) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(security.page(res));
  };
  if (existsSync(path.join(frontendDir, 'index.html'))) {
    // The frontend's files go compressed (a phone on a slow network gets a fifth of the bytes); API answers do not:
    // they are small, mostly built by PostgreSQL, and their CPU is better spent answering.
    pages.use(compression());
    pages.use('/assets', express.static(path.join(frontendDir, 'assets'), { immutable: true, maxAge: '1y' }));
    // index.html carries each response's nonce: never served as a plain file.
    pages.get('/index.html', (_req, res) => indexPage(res));
    pages.use(express.static(frontendDir, { index: false, maxAge: '1h' }));
    // Every other path is a route of the single-page app.
    pages.get('/{*path}', (_req, res) => indexPage(res));
  } else {
    pages.get('/', (_req, res) => {
      res.type('text').send('The frontend is not built yet: run `npm run build`.');
    });
  }
  return { security: security.handlers, pages };
}

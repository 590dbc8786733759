import { createRequire } from 'node:module';
import path from 'node:path';
import compression from 'compression';
import { Router, type Response } from 'express';
import { notFound } from '@pawhaven/platform';
import { escapeHtml } from './mailbox-page';

/** Swagger UI's prebuilt files (the `swagger-ui-dist` package: static, no build step of ours). */
const SWAGGER_UI = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Starts Swagger UI on the OpenAPI document, which stays at /api/docs. */
const START = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/docs',
    dom_id: '#reference',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    defaultModelsExpandDepth: 0,
    docExpansion: 'list',
    filter: true,
  });
});
`;

/** The files the page loads, by the name it asks for. */
const FILES: Record<string, { file: string } | { type: string; body: string }> = {
  'swagger-ui.css': { file: path.join(SWAGGER_UI, 'swagger-ui.css') },
  'swagger-ui-bundle.js': { file: path.join(SWAGGER_UI, 'swagger-ui-bundle.js') },
  'start.js': { type: 'text/javascript', body: START },
};

/** The page: a header of ours, Swagger UI below it (a loading line until its script has run). */
const page = (nonce: string | undefined) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>PawHaven API reference</title>
<meta name="description" content="Every call of the PawHaven API: parameters, request bodies and answers, from its OpenAPI document.">
<link rel="stylesheet" href="/api/reference/swagger-ui.css">
<style${nonce ? ` nonce="${escapeHtml(nonce)}"` : ''}>
body{margin:0;font-family:system-ui,sans-serif;color:#2d2a26;background:#fff}
.top{display:flex;flex-wrap:wrap;align-items:baseline;gap:.5rem 1.25rem;padding:1rem 20px;background:#fdf8f3;border-bottom:1px solid #eadfd3}
.top a{color:#8a4b12}.top strong{font-size:1.25rem}.top strong a{color:inherit;text-decoration:none}
.loading{padding:2rem 20px;color:#6b6158}
</style></head><body>
<header class="top"><strong><a href="/">PawHaven</a> API reference</strong>
<a href="/api/docs">The OpenAPI document (JSON)</a></header>
<main id="reference"><p class="loading">Loading the API reference…</p>
<noscript><p class="loading">This page needs JavaScript. The OpenAPI document is at <a href="/api/docs">/api/docs</a>.</p></noscript></main>
<script src="/api/reference/swagger-ui-bundle.js"></script>
<script src="/api/reference/start.js"></script>
</body></html>`;

/**
 * The app's Content-Security-Policy (set for every response before this), with one addition for this page only:
 * pictures from `data:`, which is how Swagger UI's stylesheet draws its icons. The page shows nothing any user wrote.
 */
function allowDataPictures(res: Response) {
  const policy = res.getHeader('Content-Security-Policy');
  if (typeof policy === 'string')
    res.setHeader('Content-Security-Policy', policy.replace(/(^|;)img-src /, '$1img-src data: '));
}

/** The OpenAPI document as a page people can read: /api/reference, rendered by Swagger UI. */
export function apiReference(): Router {
  const router = Router();
  router.get('/api/reference', (_req, res) => {
    allowDataPictures(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(page(res.locals.cspNonce as string | undefined));
  });
  router.get('/api/reference/:file', compression(), (req, res, next) => {
    const name = req.params.file as string;
    const wanted = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
    if (!wanted) throw notFound('No such file');
    // Swagger UI's files change only with its version: a day in the browser's cache.
    res.setHeader('Cache-Control', 'public, max-age=86400');
    if ('body' in wanted) res.type(wanted.type).send(wanted.body);
    else res.sendFile(wanted.file, (error) => error && next(error));
  });
  return router;
}

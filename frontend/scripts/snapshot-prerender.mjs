// Refreshes the prerendered first screens in frontend/index.html (between the `prerender:start` and
// `prerender:end` comments) from the production build, in the Chromium the browser tests use:
//
//   npm run build --workspace frontend && node frontend/scripts/snapshot-prerender.mjs && npm run build --workspace frontend
//
// Each page's header and first screen are copied as rendered (the API is held back, so the directories, the FAQ and
// the team show their loading state), with the CSS rules they use. public/prerender.js picks the one for the address before the first
// paint; React replaces it when the page is mounted (src/shared/prerender.ts). Run it after changing the header, the
// landing hero / How It Works, the directory heading and search box, the FAQ's, the team's or the contact page's first
// screen.
/* global process, URL, document, console, CSSStyleSheet */
import http from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';

const FRONTEND = path.resolve(import.meta.dirname, '..');
const DIST = path.join(FRONTEND, 'dist');
const INDEX = path.join(FRONTEND, 'index.html');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** name, address, and what of `main` is the first screen. */
const PAGES = [
  { name: 'home', url: '/', parts: 'main > :nth-child(1), main > :nth-child(2)', ready: '#root main h2' },
  {
    name: 'ngo',
    url: '/ngo',
    parts: 'main > :first-child',
    ready: '#root [data-testid="directory-loading"]',
  },
  {
    name: 'clinics',
    url: '/clinics',
    parts: 'main > :first-child',
    ready: '#root [data-testid="directory-loading"]',
  },
  { name: 'faq', url: '/faq', parts: 'main > :first-child', ready: '#root [data-testid="faq-loading"]' },
  { name: 'team', url: '/team', parts: 'main > :first-child', ready: '#root main h1' },
  { name: 'contactus', url: '/contactus', parts: 'main > :first-child', ready: '#root main form' },
];

const TYPES = { '.js': 'text/javascript', '.svg': 'image/svg+xml', '.html': 'text/html' };
const server = http.createServer((req, res) => {
  const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (pathname.startsWith('/api/') || pathname.startsWith('/socket.io')) return; // never answered
  readFile(path.join(DIST, pathname)).then(
    (body) => {
      res.writeHead(200, { 'content-type': TYPES[path.extname(pathname)] ?? 'application/octet-stream' });
      res.end(body);
    },
    async () => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(await readFile(path.join(DIST, 'index.html')));
    },
  );
});
await new Promise((resolve) => server.listen(0, resolve));
const port = server.address().port;
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });

const rules = new Map();
const used = new Set();
const blocks = [];
try {
  for (const page of PAGES) {
    const tab = await browser.newPage({ viewport: { width: 412, height: 823 } });
    // emotion's rules as written (CSSOM's cssText can reorder logical and physical properties, e.g. padding-inline
    // against padding-left, and change which one wins).
    await tab.addInitScript(() => {
      const insertRule = CSSStyleSheet.prototype.insertRule;
      globalThis.__insertedRules = [];
      CSSStyleSheet.prototype.insertRule = function (rule, index) {
        globalThis.__insertedRules.push(rule);
        return insertRule.call(this, rule, index);
      };
    });
    await tab.goto(`http://localhost:${port}${page.url}`);
    await tab.waitForSelector(page.ready);
    const shot = await tab.evaluate((parts) => {
      // Inside #root: the page as React renders it, not an earlier copy.
      const elements = [
        document.querySelector('#root header'),
        ...document.querySelectorAll(parts.replaceAll('main', '#root main')),
      ];
      const classes = new Set();
      for (const el of elements) {
        for (const node of [el, ...el.querySelectorAll('*')]) {
          for (const c of node.classList) classes.add(c);
          // Ids, test ids and live regions belong to the real page only.
          for (const attr of [
            'id',
            'for',
            'aria-controls',
            'aria-labelledby',
            'aria-describedby',
            'data-testid',
            'data-discover',
            'role',
            'aria-live',
          ])
            node.removeAttribute(attr);
          if (node.tagName === 'INPUT') node.setAttribute('readonly', '');
        }
      }
      const css = globalThis.__insertedRules;
      return { html: elements.map((el) => el.outerHTML).join(''), classes: [...classes], css };
    }, page.parts);
    for (const c of shot.classes) used.add(c);
    for (const r of shot.css) rules.set(r, true);
    blocks.push(`<div data-prerender-page="${page.name}">${shot.html}</div>`);
    await tab.close();
  }
} finally {
  await browser.close();
  server.close();
}

// The global rules (CssBaseline) and every rule of a class the copies use, in the order emotion inserted them.
const keep = (rule) => {
  const classes = [...rule.matchAll(/\.(css-[\w-]+)/g)].map((m) => m[1]);
  if (rule.startsWith('@keyframes')) return true;
  if (classes.length === 0) return !/\.Mui/.test(rule);
  return classes.some((c) => used.has(c));
};
const css = [...rules.keys()]
  .filter(keep)
  .join('')
  .replace(/\s*([{};:,])\s*/g, '$1');
const snapshot = [
  '<!-- prerender:start (generated by scripts/snapshot-prerender.mjs: do not edit by hand) -->',
  '<!-- prettier-ignore -->',
  `<div id="prerender" aria-hidden="true" inert><style id="prerender-css">${css}</style>${blocks.join('')}</div>`,
  '<!-- prerender:end -->',
].join('\n    ');

const html = await readFile(INDEX, 'utf8');
const start = html.indexOf('<!-- prerender:start');
const end = html.indexOf('<!-- prerender:end -->');
if (start < 0 || end < 0) throw new Error('index.html has no prerender:start / prerender:end comments');
await writeFile(INDEX, html.slice(0, start) + snapshot + html.slice(end + '<!-- prerender:end -->'.length));
console.log(`prerendered ${PAGES.map((p) => p.url).join(', ')}: ${css.length} bytes of CSS`);

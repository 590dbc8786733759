import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { DEMO_PASSWORD } from '@pawhaven/command-api';
import { startApp } from '@pawhaven/gateway';
import { freshDatabase } from '../lib/postgres';
import type { BenchContext, BenchRow, BenchSection } from '../lib/types';

// LH_PAGES=/,/team measures only those pages (a signed-in page by its address: /chat, /notifications, /profile);
// LH_RUNS changes the run count; LH_REPORT_DIR=<dir> keeps every full JSON report (LCP element, long tasks, unused
// JavaScript) for diagnosis.
const PUBLIC_PAGES = [
  '/',
  '/adoption',
  '/posts',
  '/posts/{post}',
  '/profile/public/{author}',
  '/faq',
  '/team',
  '/contactus',
  '/ngo',
  '/clinics',
];
const SIGNED_IN_PAGES = ['/chat', '/notifications', '/profile'];
const PAGES = process.env.LH_PAGES?.split(',').filter(Boolean) ?? [...PUBLIC_PAGES, ...SIGNED_IN_PAGES];
const RUNS = Number(process.env.LH_RUNS ?? 3);
const REPORT_DIR = process.env.LH_REPORT_DIR;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FRONTEND_DIST = path.resolve(import.meta.dirname, '../../frontend/dist/index.html');

/** What every page must reach (mobile profile); signed-in pages a lower performance score. */
const TARGET = {
  performance: 95,
  signedInPerformance: 90,
  accessibility: 100,
  bestPractices: 100,
  cls: 0.05,
  lcpMs: 2500,
};

/** A post of the feed, as much of it as the bench reads. */
type DemoPost = { _id: string; userId: { _id: string } | null };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The targets a row misses, in words ('' when it meets them all). */
function misses(
  row: { performance: number; accessibility: number; bestPractices: number; cls: number; lcpMs: number },
  signedIn: boolean,
) {
  const performance = signedIn ? TARGET.signedInPerformance : TARGET.performance;
  return [
    row.performance < performance && `performance < ${performance}`,
    row.accessibility < TARGET.accessibility && `accessibility < ${TARGET.accessibility}`,
    row.bestPractices < TARGET.bestPractices && `best practices < ${TARGET.bestPractices}`,
    row.cls >= TARGET.cls && `CLS ≥ ${TARGET.cls}`,
    row.lcpMs >= TARGET.lcpMs && `LCP ≥ ${TARGET.lcpMs} ms`,
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * Lighthouse (mobile profile, its default: simulated slow 4G and a 4× slower CPU) on every public page and the
 * signed-in ones, served by the whole app with its demo data from the production build, in the same Chromium the
 * browser tests use. Median of three runs; a row that misses a target says which.
 */
export const lighthouseScores: BenchSection = {
  name: 'lighthouse',
  title: `Lighthouse, mobile profile: performance, accessibility and best practices of ${PAGES.join(', ')} (median of ${RUNS}; targets: performance ≥ ${TARGET.performance}, signed in ≥ ${TARGET.signedInPerformance}, accessibility and best practices ${TARGET.accessibility}, CLS < ${TARGET.cls}, LCP < ${TARGET.lcpMs} ms)`,
  columns: [
    { key: 'page', header: 'page' },
    { key: 'performance', header: 'performance' },
    { key: 'accessibility', header: 'accessibility' },
    { key: 'bestPractices', header: 'best practices' },
    { key: 'fcpMs', header: 'FCP ms' },
    { key: 'lcpMs', header: 'LCP ms' },
    { key: 'tbtMs', header: 'TBT ms' },
    { key: 'siMs', header: 'SI ms' },
    { key: 'cls', header: 'CLS' },
    { key: 'runs', header: 'performance runs' },
    { key: 'target', header: 'on target' },
  ],
  async run(ctx: BenchContext) {
    if (!existsSync(FRONTEND_DIST)) {
      ctx.log('  building the frontend…');
      execFileSync('npm', ['run', 'build', '--workspace', 'frontend'], { stdio: 'ignore' });
    }
    // The app as `npm start` runs it on a first start: demo accounts, ads, posts and a chat.
    const app = await startApp({
      databaseUrl: await freshDatabase(ctx.connectionString, 'pawhaven_lighthouse'),
      port: 0,
      config: { LOG_LEVEL: 'silent' },
      demoData: true,
    });
    const origin = `http://localhost:${app.port}`;
    // The demo posts are listed once the read models have them.
    const demoPost = async () => {
      for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
        const posts = (await (await fetch(`${origin}/api/posts`)).json()) as DemoPost[];
        const post = posts.find((p) => p.userId);
        if (post) return post;
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error('the demo data has no post with an author');
    };
    const post = await demoPost().catch(async (error: unknown) => {
      await app.stop();
      throw error;
    });
    const { _id: postId, userId: author } = post;
    const address = (page: string) => page.replace('{post}', postId).replace('{author}', author!._id);
    const chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      chromeFlags: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    // Signed-in pages: a demo user signs in once (remember me: the session is in localStorage, which Lighthouse
    // then keeps), in the browser Lighthouse drives.
    let signedIn = false;
    const signIn = async () => {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      try {
        const page = await browser.contexts()[0]!.newPage();
        const user = app.demoUsers[0]!;
        await page.goto(`${origin}/signin`);
        await page.getByLabel('Email').fill(user.email);
        await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
        await page.getByLabel('Remember me').check();
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('button', { name: `Hi, ${user.username}` }).waitFor({ timeout: 30_000 });
        await page.close();
      } finally {
        await browser.close();
      }
      signedIn = true;
    };
    // Lighthouse keeps the member's storage, and with it the HTTP cache: emptied before each run, as for a visitor.
    const emptyCache = async () => {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      try {
        const page = await browser.contexts()[0]!.newPage();
        await (await page.context().newCDPSession(page)).send('Network.clearBrowserCache');
        await page.close();
      } finally {
        await browser.close();
      }
    };
    try {
      const rows: BenchRow[] = [];
      for (const page of PAGES) {
        const asMember = SIGNED_IN_PAGES.includes(page);
        if (asMember && !signedIn) await signIn();
        const runs: {
          performance: number;
          accessibility: number;
          bestPractices: number;
          fcp: number;
          lcp: number;
          tbt: number;
          si: number;
          cls: number;
        }[] = [];
        for (let r = 0; r < RUNS; r++) {
          const measure = async () => {
            if (asMember) await emptyCache();
            const result = await lighthouse(`${origin}${address(page)}`, {
              port: chrome.port,
              output: 'json',
              logLevel: 'error',
              onlyCategories: ['performance', 'accessibility', 'best-practices'],
              // A visitor's page starts from empty storage; a member's keeps the session signed in above.
              disableStorageReset: asMember,
            });
            if (!result?.lhr) throw new Error(`Lighthouse gave no result for ${page}`);
            return result.lhr;
          };
          // A run whose trace Lighthouse could not read (NO_NAVSTART and the like) scores 0: it is run again.
          let lhr = await measure();
          for (let attempt = 2; lhr.runtimeError && attempt <= 3; attempt++) {
            ctx.log(`  ${page}: ${lhr.runtimeError.code}, run again`);
            lhr = await measure();
          }
          if (REPORT_DIR) {
            mkdirSync(REPORT_DIR, { recursive: true });
            const name = `${page.replace(/\W+/g, '_') || 'root'}-${r}.json`;
            writeFileSync(path.join(REPORT_DIR, name), JSON.stringify(lhr));
          }
          const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
          const metric = (id: string) => lhr.audits[id]?.numericValue ?? 0;
          runs.push({
            performance: score('performance'),
            accessibility: score('accessibility'),
            bestPractices: score('best-practices'),
            fcp: metric('first-contentful-paint'),
            lcp: metric('largest-contentful-paint'),
            tbt: metric('total-blocking-time'),
            si: metric('speed-index'),
            cls: metric('cumulative-layout-shift'),
          });
        }
        const row = {
          page: asMember ? `${page} (signed in)` : page,
          performance: median(runs.map((x) => x.performance)),
          accessibility: median(runs.map((x) => x.accessibility)),
          bestPractices: median(runs.map((x) => x.bestPractices)),
          fcpMs: Math.round(median(runs.map((x) => x.fcp))),
          lcpMs: Math.round(median(runs.map((x) => x.lcp))),
          tbtMs: Math.round(median(runs.map((x) => x.tbt))),
          siMs: Math.round(median(runs.map((x) => x.si))),
          cls: Math.round(median(runs.map((x) => x.cls)) * 1000) / 1000,
          runs: runs.map((x) => x.performance).join(' '),
        };
        const missed = misses(row, asMember);
        rows.push({ ...row, target: missed ? `no: ${missed}` : 'yes' });
        ctx.log(`  ${page}: ${JSON.stringify(rows[rows.length - 1])}`);
      }
      return rows;
    } finally {
      chrome.kill();
      await app.stop();
    }
  },
};

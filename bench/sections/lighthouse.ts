import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { BenchContext, BenchRow, BenchSection } from '../lib/types';
import { benchApp } from './adoption';

const PAGES = ['/', '/ngo', '/clinics'];
const RUNS = 3;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FRONTEND_DIST = path.resolve(import.meta.dirname, '../../frontend/dist/index.html');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Lighthouse (mobile profile, its default: simulated slow 4G and a 4× slower CPU) on the public pages, served by
 * the whole app from the production build, in the same Chromium the browser tests use. Median of three runs.
 */
export const lighthouseScores: BenchSection = {
  name: 'lighthouse',
  title: `Lighthouse, mobile profile: performance, accessibility and best practices of ${PAGES.join(', ')} (median of ${RUNS})`,
  columns: [
    { key: 'page', header: 'page' },
    { key: 'performance', header: 'performance' },
    { key: 'accessibility', header: 'accessibility' },
    { key: 'bestPractices', header: 'best practices' },
    { key: 'lcpMs', header: 'LCP ms' },
    { key: 'cls', header: 'CLS' },
  ],
  async run(ctx: BenchContext) {
    if (!existsSync(FRONTEND_DIST)) {
      ctx.log('  building the frontend…');
      execFileSync('npm', ['run', 'build', '--workspace', 'frontend'], { stdio: 'ignore' });
    }
    const bench = await benchApp(ctx);
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
    try {
      const rows: BenchRow[] = [];
      for (const page of PAGES) {
        const runs: {
          performance: number;
          accessibility: number;
          bestPractices: number;
          lcp: number;
          cls: number;
        }[] = [];
        for (let r = 0; r < RUNS; r++) {
          const result = await lighthouse(`http://localhost:${bench.app.port}${page}`, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance', 'accessibility', 'best-practices'],
          });
          const lhr = result?.lhr;
          if (!lhr) throw new Error(`Lighthouse gave no result for ${page}`);
          const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
          runs.push({
            performance: score('performance'),
            accessibility: score('accessibility'),
            bestPractices: score('best-practices'),
            lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? 0,
            cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? 0,
          });
        }
        rows.push({
          page,
          performance: median(runs.map((x) => x.performance)),
          accessibility: median(runs.map((x) => x.accessibility)),
          bestPractices: median(runs.map((x) => x.bestPractices)),
          lcpMs: Math.round(median(runs.map((x) => x.lcp))),
          cls: Math.round(median(runs.map((x) => x.cls)) * 1000) / 1000,
        });
        ctx.log(`  ${page}: ${JSON.stringify(rows[rows.length - 1])}`);
      }
      return rows;
    } finally {
      chrome.kill();
      await bench.stop();
    }
  },
};

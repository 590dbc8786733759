import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { BenchContext, BenchRow, BenchSection } from '../lib/types';
import { benchApp } from './adoption';

// LH_PAGES=/,/team,/contactus measures other pages; LH_RUNS changes the run count; LH_REPORT_DIR=<dir> keeps every
// full JSON report (LCP element, long tasks, unused JavaScript) for diagnosis.
const PAGES = process.env.LH_PAGES?.split(',').filter(Boolean) ?? ['/', '/ngo', '/clinics'];
const RUNS = Number(process.env.LH_RUNS ?? 3);
const REPORT_DIR = process.env.LH_REPORT_DIR;
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
    { key: 'fcpMs', header: 'FCP ms' },
    { key: 'lcpMs', header: 'LCP ms' },
    { key: 'tbtMs', header: 'TBT ms' },
    { key: 'siMs', header: 'SI ms' },
    { key: 'cls', header: 'CLS' },
    { key: 'runs', header: 'performance runs' },
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
          fcp: number;
          lcp: number;
          tbt: number;
          si: number;
          cls: number;
        }[] = [];
        for (let r = 0; r < RUNS; r++) {
          const measure = async () => {
            const result = await lighthouse(`http://localhost:${bench.app.port}${page}`, {
              port: chrome.port,
              output: 'json',
              logLevel: 'error',
              onlyCategories: ['performance', 'accessibility', 'best-practices'],
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
        rows.push({
          page,
          performance: median(runs.map((x) => x.performance)),
          accessibility: median(runs.map((x) => x.accessibility)),
          bestPractices: median(runs.map((x) => x.bestPractices)),
          fcpMs: Math.round(median(runs.map((x) => x.fcp))),
          lcpMs: Math.round(median(runs.map((x) => x.lcp))),
          tbtMs: Math.round(median(runs.map((x) => x.tbt))),
          siMs: Math.round(median(runs.map((x) => x.si))),
          cls: Math.round(median(runs.map((x) => x.cls)) * 1000) / 1000,
          runs: runs.map((x) => x.performance).join(' '),
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

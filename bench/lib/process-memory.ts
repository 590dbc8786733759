import type { AppProcess } from './app-process';
import { rssMb } from './cluster';
import { round } from './measure';
import { median } from './open-loop';

/**
 * A process's memory in MB: RSS from /proc; V8's heap from its own trace, committed after each collection (what the
 * heap holds of RSS) and live (used after a full collection, its garbage gone). Objects piling up show in the live
 * heap; a heap or an allocator that grew once and stays does not. Null: no sample (no full collection) then.
 */
export type MemoryFigures = { rss: number | null; heap: number | null; live: number | null };

const medianOf = (values: number[]) => (values.length > 0 ? median(values) : null);

/** From now on, the app's RSS every `everyMs`; `start` is what it held when called. */
export function watchMemory(app: AppProcess, everyMs: number) {
  const origin = performance.now();
  const secondsIn = (atMs: number) => (atMs - origin) / 1000;
  const rss: { at: number; mb: number }[] = [];
  const gcs = () => app.gcs().map((g) => ({ ...g, at: secondsIn(g.atMs) }));
  const before = gcs();
  const start: MemoryFigures = {
    rss: rssMb(app.pid),
    heap: before.at(-1)?.committedMb ?? null,
    live: before.filter((g) => g.full).at(-1)?.usedMb ?? null,
  };
  const timer = setInterval(() => {
    const mb = rssMb(app.pid);
    if (mb !== null) rss.push({ at: secondsIn(performance.now()), mb });
  }, everyMs);
  return {
    start,
    stop: () => clearInterval(timer),
    samples: () => rss.length,
    /** The full collections so far: seconds since the start, live heap. */
    fullGcs: () => gcs().filter((g) => g.full),
    /**
     * Medians of the samples taken from `from` to `to` seconds since the start. Full collections are rare (one a minute
     * or less at a light load): without one in the window, the live heap is the first one after `from`.
     */
    between(from: number, to: number): MemoryFigures {
      const inside = (at: number) => at >= from && at < to;
      const all = gcs().filter((g) => g.at >= from);
      return {
        rss: medianOf(rss.filter((s) => inside(s.at)).map((s) => s.mb)),
        heap: medianOf(all.filter((g) => inside(g.at)).map((g) => g.committedMb)),
        live:
          medianOf(all.filter((g) => g.full && inside(g.at)).map((g) => g.usedMb)) ??
          all.find((g) => g.full)?.usedMb ??
          null,
      };
    },
  };
}

/** `to` against `from`: '+12.3 MB (+8.1 %)'; null when either is unknown. */
export function growth(from: number | null, to: number | null): string | null {
  if (from === null || to === null) return null;
  const sign = to >= from ? '+' : '';
  return `${sign}${round(to - from, 1)} MB (${sign}${round((100 * (to - from)) / from, 1)} %)`;
}

import type { ConsistencyWaiter } from '@pawhaven/platform';

type Entry = { state: string; storedAt: number; value: Promise<unknown> };

/**
 * Answers of hot reads (the feed's pages, a post) kept in memory until a projection they read from commits again.
 * The key is the projections' state as this process has heard it (ConsistencyWaiter.stateOf), read BEFORE the
 * query: an answer kept under a state is at least as fresh as that state, so a reader who waited for its own write
 * (X-Consistent-After) always sees it. While the listener is down nothing is cached, and an entry never outlives
 * `maxAgeMs`, so a notice lost on the way cannot keep an old answer for long. Concurrent misses for one key share one
 * query.
 */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly waiter: Pick<ConsistencyWaiter, 'stateOf'>,
    private readonly opts: { maxEntries: number; maxAgeMs: number },
  ) {}

  async get<T>(key: string, projections: readonly string[], load: () => Promise<T>): Promise<T> {
    if (this.opts.maxEntries <= 0) return load();
    const state = this.waiter.stateOf(projections);
    if (state === null) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.state === state && now - hit.storedAt < this.opts.maxAgeMs) {
      // Most recently used last: the oldest key is the first one evicted.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value as Promise<T>;
    }
    const entry: Entry = { state, storedAt: now, value: load() };
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.opts.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    entry.value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry.value as Promise<T>;
  }
}

/** The names of the projections that write `tables`: what a cached read must watch. */
export function projectionsWriting(
  projections: readonly { name: string; tables: readonly string[] }[],
  tables: readonly string[],
): string[] {
  return tables
    .map((table) => {
      const owner = projections.find((p) => p.tables.includes(table));
      if (!owner) throw new Error(`No projection writes the table '${table}'`);
      return owner.name;
    })
    .filter((name, i, all) => all.indexOf(name) === i);
}

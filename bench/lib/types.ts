/** What every bench section gets: one server, shared by all sections of a run. */
export type BenchContext = {
  connectionString: string;
  /** How long each measured cell runs. */
  cellMs: number;
  /** Upper bound of operations per cell, whatever the time. */
  maxOpsPerCell: number;
  log(line: string): void;
};

export type BenchValue = string | number | null;
export type BenchRow = Record<string, BenchValue>;

/** A named bench: it returns rows; `columns` says which of their fields the printed table shows, and how. */
export type BenchSection = {
  name: string;
  title: string;
  columns: { key: string; header: string; format?: (v: BenchValue) => string }[];
  run(ctx: BenchContext): Promise<BenchRow[]>;
};

/** The columns of a latency section (rows of `measure` at a rate, with percentiles), then how failures are named. */
export const latencyColumns = (failures: 'failed' | 'lost'): BenchSection['columns'] => [
  { key: 'measure', header: 'measure' },
  { key: 'ratePerSecond', header: 'rate/s' },
  { key: 'samples', header: 'samples' },
  { key: 'p50Ms', header: 'p50 ms' },
  { key: 'p99Ms', header: 'p99 ms' },
  { key: failures, header: failures },
];

import type { Knex } from 'knex';

/**
 * The rows a read model's `evolve` reads and writes (`read-model.ts`), behind one interface with two stores: in
 * memory for rebuilds (`memoryStore`), and over the projection's tables for live batches (`batchStore`). Rows are
 * plain values as their columns hold them (timestamps as ISO text); treat a row read as read-only and `put` a new
 * one to change it.
 */
export type Row = Record<string, unknown>;

/** A table as a read model declares it: its primary key's columns, and the columns it finds rows by. */
export type TableSpec<R extends Row = Row> = {
  key: readonly (keyof R & string)[];
  /** Columns `find` may be asked about (each needs an index on the live table). */
  lookups?: readonly (keyof R & string)[];
  /** Columns PostgreSQL computes (GENERATED): left out of the rows read, never written. */
  generated?: readonly string[];
};

export type RowTable<R extends Row> = {
  /** The row with this primary key (its key columns' values, in declared order). */
  get(...key: readonly unknown[]): R | undefined;
  /** Inserts the row or replaces the one with its key. It holds every column, defaults included. */
  put(row: R): void;
  delete(...key: readonly unknown[]): void;
  /** Every row whose `column` (one of its `lookups`) equals `value`, in no particular order. */
  find(column: keyof R & string, value: unknown): R[];
};

export type RowStore<T extends Record<string, Row>> = { [K in keyof T]: RowTable<T[K]> };
export type TableSpecs<T extends Record<string, Row>> = { [K in keyof T]: TableSpec<T[K]> };

/** Keys as one string each: a single column's value as text, or several joined by a separator no id holds. */
const keyText = (values: readonly unknown[]): string =>
  values.length === 1 ? String(values[0]) : values.map(String).join('\u0000');
const keyOf = (spec: TableSpec, row: Row): string =>
  spec.key.length === 1 ? String(row[spec.key[0]!]) : keyText(spec.key.map((c) => row[c]));

/** Adds `key` to `index[value]`. */
const addTo = (index: Map<unknown, Set<string>>, value: unknown, key: string) => {
  const set = index.get(value);
  if (set) set.add(key);
  else index.set(value, new Set([key]));
};
const removeFrom = (index: Map<unknown, Set<string>>, value: unknown, key: string) => {
  const set = index.get(value);
  if (set?.delete(key) && set.size === 0) index.delete(value);
};

/** One table in memory, with an index per lookup column (null values are not found, as `= NULL` finds nothing). */
class MemoryTable implements RowTable<Row> {
  readonly rows = new Map<string, Row>();
  private readonly indexes = new Map<string, Map<unknown, Set<string>>>();

  constructor(private readonly spec: TableSpec) {
    for (const column of spec.lookups ?? []) this.indexes.set(column, new Map());
  }

  get(...key: readonly unknown[]) {
    return this.rows.get(keyText(key));
  }

  put(row: Row) {
    const key = keyOf(this.spec, row);
    const old = this.rows.get(key);
    for (const [column, index] of this.indexes) {
      const before = old?.[column];
      const after = row[column];
      if (old && before === after) continue;
      if (old && before != null) removeFrom(index, before, key);
      if (after != null) addTo(index, after, key);
    }
    this.rows.set(key, row);
  }

  delete(...key: readonly unknown[]) {
    const text = keyText(key);
    const old = this.rows.get(text);
    if (!old) return;
    for (const [column, index] of this.indexes) if (old[column] != null) removeFrom(index, old[column], text);
    this.rows.delete(text);
  }

  find(column: string, value: unknown): Row[] {
    const index = this.indexes.get(column);
    if (!index) throw new Error(`${column} is not a declared lookup`);
    const keys = index.get(value);
    return keys ? [...keys].map((k) => this.rows.get(k)!) : [];
  }
}

/** Every table in memory: what a rebuild evolves, then writes in bulk (`rows`). */
export function memoryStore<T extends Record<string, Row>>(
  specs: TableSpecs<T>,
): { store: RowStore<T>; rows(): Record<string, Iterable<Row>> } {
  const tables = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [name, new MemoryTable(spec as TableSpec)]),
  ) as Record<string, MemoryTable>;
  return {
    store: tables as unknown as RowStore<T>,
    rows: () => Object.fromEntries(Object.entries(tables).map(([name, t]) => [name, t.rows.values()])),
  };
}

/** A row a batch deleted. */
const DELETED = Symbol('deleted');

/**
 * A live batch's view of the tables: rows read from the database on first use and kept for the batch, changes kept
 * aside (`pending`) until `write` sends them in one statement per table. A row not loaded yet is a miss: `get`
 * answers undefined and `find` the rows known so far, and the batch is evolved again once every miss of the pass is
 * loaded (`runBatch`), so `evolve` stays synchronous, the same code as in memory.
 */
class BatchTable implements RowTable<Row> {
  /** Rows as the database holds them (null: known absent). */
  readonly loaded = new Map<string, Row | null>();
  /** Per lookup column, the values whose rows are all in `loaded`, with their keys. */
  readonly found = new Map<string, Map<unknown, Set<string>>>();
  /** This pass's changes. */
  pending = new Map<string, Row | typeof DELETED>();
  /** Misses of this pass: keys, and lookup values per column. */
  missingKeys: unknown[][] = [];
  missingLookups = new Map<string, unknown[]>();

  constructor(
    readonly name: string,
    readonly spec: TableSpec,
  ) {
    for (const column of spec.lookups ?? []) this.found.set(column, new Map());
  }

  get missed() {
    return this.missingKeys.length > 0 || this.missingLookups.size > 0;
  }

  get(...key: readonly unknown[]) {
    const text = keyText(key);
    const changed = this.pending.get(text);
    if (changed !== undefined) return changed === DELETED ? undefined : changed;
    const row = this.loaded.get(text);
    if (row !== undefined) return row ?? undefined;
    this.missingKeys.push([...key]);
    return undefined;
  }

  put(row: Row) {
    this.pending.set(keyOf(this.spec, row), row);
  }

  delete(...key: readonly unknown[]) {
    this.pending.set(keyText(key), DELETED);
  }

  find(column: string, value: unknown): Row[] {
    const index = this.found.get(column);
    if (!index) throw new Error(`${column} is not a declared lookup of ${this.name}`);
    const keys = index.get(value);
    if (value != null && !keys) {
      const missing = this.missingLookups.get(column);
      if (missing) missing.push(value);
      else this.missingLookups.set(column, [value]);
    }
    const result: Row[] = [];
    for (const key of keys ?? []) {
      if (this.pending.has(key)) continue;
      const row = this.loaded.get(key);
      if (row) result.push(row);
    }
    for (const row of this.pending.values()) if (row !== DELETED && row[column] === value) result.push(row);
    return result;
  }

  remember(rows: Row[]) {
    for (const row of rows) {
      const key = keyOf(this.spec, row);
      // A row loaded before is the same row: the batch's transaction does not write until its end.
      if (!this.loaded.get(key)) this.loaded.set(key, row);
    }
  }
}

/** PostgreSQL type ids the row values are converted from: bigint, date, timestamp, timestamptz. */
const INT8 = 20;
const DATE = 1082;
type Loaded = { rows: Row[]; fields: { name: string; dataTypeID: number }[] };

/**
 * Rows as a read model computes them: bigints as numbers (counts), timestamps as ISO text and dates as
 * `YYYY-MM-DD`, as an event's values are.
 */
function asValues({ rows, fields }: Loaded, spec: TableSpec): Row[] {
  for (const column of spec.generated ?? []) for (const row of rows) delete row[column];
  const bigints = fields.filter((f) => f.dataTypeID === INT8).map((f) => f.name);
  const dates = fields.filter((f) => f.dataTypeID === DATE).map((f) => f.name);
  for (const row of rows) {
    for (const column of bigints) if (row[column] != null) row[column] = Number(row[column]);
    for (const column in row) {
      const value = row[column];
      if (!(value instanceof Date)) continue;
      row[column] = dates.includes(column)
        ? `${value.getFullYear()}-${String(value.getMonth() + 1).padStart(2, '0')}-${String(value.getDate()).padStart(2, '0')}`
        : value.toISOString();
    }
  }
  return rows;
}

/** The tables' rows named by this pass's misses, in one query per table. */
async function loadMisses(tx: Knex.Transaction, table: BatchTable): Promise<void> {
  const { name, spec } = table;
  if (table.missingKeys.length > 0) {
    const wanted = table.missingKeys.map((values) =>
      Object.fromEntries(spec.key.map((c, i) => [c, values[i]])),
    );
    const loaded = (await tx.raw(
      `SELECT t.* FROM ?? t WHERE (${spec.key.map(() => 't.??').join(', ')}) IN
         (SELECT ${spec.key.map(() => 'k.??').join(', ')} FROM jsonb_populate_recordset(NULL::??, ?::jsonb) k)`,
      [name, ...spec.key, ...spec.key, name, JSON.stringify(wanted)],
    )) as Loaded;
    for (const values of table.missingKeys) table.loaded.set(keyText(values), null);
    table.remember(asValues(loaded, spec));
    table.missingKeys = [];
  }
  for (const [column, values] of table.missingLookups) {
    const rows = asValues(
      (await tx.raw(
        `SELECT t.* FROM ?? t WHERE t.?? IN (SELECT k.?? FROM jsonb_populate_recordset(NULL::??, ?::jsonb) k)`,
        [name, column, column, name, JSON.stringify(values.map((v) => ({ [column]: v })))],
      )) as Loaded,
      spec,
    );
    table.remember(rows);
    const index = table.found.get(column)!;
    for (const value of values) if (!index.has(value)) index.set(value, new Set());
    for (const row of rows) {
      const value = row[column];
      if (value != null) addTo(index, value, keyOf(spec, row));
    }
  }
  table.missingLookups = new Map();
}

/** A pass's changes written back: upserts in declared table order, then deletions in reverse (children first). */
async function writeChanges(tx: Knex.Transaction, tables: readonly BatchTable[]): Promise<void> {
  for (const table of tables) {
    const rows = [...table.pending.values()].filter((r): r is Row => r !== DELETED);
    if (rows.length === 0) continue;
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    const others = columns.filter((c) => !table.spec.key.includes(c));
    await tx.raw(
      `INSERT INTO ?? (${columns.map(() => '??').join(', ')})
       SELECT ${columns.map(() => 'r.??').join(', ')} FROM jsonb_populate_recordset(NULL::??, ?::jsonb) r
       ON CONFLICT (${table.spec.key.map(() => '??').join(', ')}) DO ${
         others.length === 0 ? 'NOTHING' : `UPDATE SET ${others.map(() => '?? = EXCLUDED.??').join(', ')}`
       }`,
      [
        table.name,
        ...columns,
        ...columns,
        table.name,
        JSON.stringify(rows),
        ...table.spec.key,
        ...others.flatMap((c) => [c, c]),
      ],
    );
  }
  for (const table of [...tables].reverse()) {
    const gone = [...table.pending].filter(([, r]) => r === DELETED).map(([key]) => key);
    if (gone.length === 0) continue;
    const { key } = table.spec;
    const wanted = gone.map((text) => {
      const values = key.length === 1 ? [text] : text.split('\u0000');
      return Object.fromEntries(key.map((c, i) => [c, values[i]]));
    });
    await tx.raw(
      `DELETE FROM ?? t USING jsonb_populate_recordset(NULL::??, ?::jsonb) k WHERE ${key
        .map(() => 't.?? = k.??')
        .join(' AND ')}`,
      [table.name, table.name, JSON.stringify(wanted), ...key.flatMap((c) => [c, c])],
    );
  }
}

/**
 * Runs `evolve` over a batch against the live tables in `tx`: each pass evolves every event from the batch's start
 * with what is loaded, collecting misses; the misses are loaded (one query per table) and the batch evolved again,
 * until a pass misses nothing. That pass's changes are then written, and `commit` is called with what it produced.
 * A pass that throws after a miss was working from rows it did not have yet: it is simply run again.
 */
export async function runBatch<T extends Record<string, Row>>(
  tx: Knex.Transaction,
  specs: TableSpecs<T>,
  pass: (store: RowStore<T>) => void,
): Promise<{ passes: number }> {
  const tables = Object.entries(specs).map(([name, spec]) => new BatchTable(name, spec as TableSpec));
  const store = Object.fromEntries(tables.map((t) => [t.name, t])) as unknown as RowStore<T>;
  for (let passes = 1; ; passes++) {
    for (const t of tables) t.pending = new Map();
    let failure: unknown;
    try {
      pass(store);
    } catch (error) {
      failure = error ?? new Error('evolve threw');
    }
    const missed = tables.filter((t) => t.missed);
    if (missed.length === 0) {
      if (failure !== undefined) throw failure;
      await writeChanges(tx, tables);
      return { passes };
    }
    for (const t of missed) await loadMisses(tx, t);
  }
}

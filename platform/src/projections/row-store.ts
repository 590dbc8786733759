import type { Knex } from 'knex';
import { covers, inSpan, RangeIndex, spanSql, type Span } from './range-index';

/**
 * The rows a read model's `evolve` reads and writes (`read-model.ts`), behind one interface with two stores: in
 * memory for rebuilds (`memoryStore`), and over the projection's tables for live batches (`batchStore`). Rows are
 * plain values as their columns hold them (timestamps as ISO text). `evolve` may change a row it got (`get`, `find`),
 * but not its key columns (a row of another key is a new row), and must then `put` it back, or `put` a new one: in
 * memory the row held is handed out and changed in place (a rebuild allocates nothing for it); a live batch hands
 * out its own copy per pass, so a pass thrown away leaves nothing behind, and only what is `put` is written.
 */
export type Row = Record<string, unknown>;

/** A table as a read model declares it: its primary key's columns, and the columns it finds rows by. */
export type TableSpec<R extends Row = Row> = {
  key: readonly (keyof R & string)[];
  /** Columns `find` may be asked about (each needs an index on the live table). */
  lookups?: readonly (keyof R & string)[];
  /**
   * Number columns `between` and `findNull` may be asked about (each needs an index on the live table that serves
   * a range, or IS NULL).
   */
  ranges?: readonly (keyof R & string)[];
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
  /**
   * Every row whose `column` (one of its `ranges`) lies strictly between `above` and `below` (a bound left undefined
   * does not bound), in no particular order; NULLs are not between anything.
   */
  between(column: keyof R & string, above: number | undefined, below: number | undefined): R[];
  /** Every row whose `column` (one of its `ranges`) is NULL, in no particular order. */
  findNull(column: keyof R & string): R[];
};

export type RowStore<T extends Record<string, Row>> = { [K in keyof T]: RowTable<T[K]> };
export type TableSpecs<T extends Record<string, Row>> = { [K in keyof T]: TableSpec<T[K]> };

/** Keys as one string each: a single column's value as text, or several joined by a separator no id holds. */
const SEPARATOR = '\u0000';
const text = (value: unknown): string => (typeof value === 'string' ? value : String(value));
function keyText(values: readonly unknown[]): string {
  let key = text(values[0]);
  for (let i = 1; i < values.length; i++) key += SEPARATOR + text(values[i]);
  return key;
}
function keyOf(spec: TableSpec, row: Row): string {
  const columns = spec.key;
  let key = text(row[columns[0]!]);
  for (let i = 1; i < columns.length; i++) key += SEPARATOR + text(row[columns[i]!]);
  return key;
}

/** Adds `key` to `index[value]`. */
const addTo = <K>(index: Map<unknown, Set<K>>, value: unknown, key: K) => {
  const set = index.get(value);
  if (set) set.add(key);
  else index.set(value, new Set([key]));
};

/**
 * A lookup index in memory: value → the slot holding it, or an array of them once a second one shares the value.
 * Most values (a comment's, a request's id) are held by one row: a rebuild then allocates nothing for them. A slot
 * knows its place in each array it is in (`Slot.indexed`), so taking it out moves the last one into its place: no
 * search, and no Set to hash every row into (which cost a rebuild's fold thread an eighth of its time).
 */
type SlotIndex = Map<unknown, Slot | Slot[]>;
/** Indexes `slot` under `value`; `at` is where, in `slot.indexed`, its place in a shared value's array is kept. */
const addSlot = (index: SlotIndex, value: unknown, slot: Slot, at: number) => {
  const held = index.get(value);
  if (held === undefined) index.set(value, slot);
  else if (Array.isArray(held)) {
    slot.indexed[at] = held.length;
    held.push(slot);
  } else if (held !== slot) {
    held.indexed[at] = 0;
    slot.indexed[at] = 1;
    index.set(value, [held, slot]);
  }
};
const removeSlot = (index: SlotIndex, value: unknown, slot: Slot, at: number) => {
  const held = index.get(value);
  if (held === slot) index.delete(value);
  else if (Array.isArray(held)) {
    const place = slot.indexed[at] as number;
    if (held[place] !== slot) return;
    const last = held.pop()!;
    if (last !== slot) {
      held[place] = last;
      last.indexed[at] = place;
    }
    if (held.length === 0) index.delete(value);
  }
};

const NO_KEY: readonly unknown[] = [];
/** The lookup or range values of a row of a table that has none (never written: it has no index to keep). */
const NONE: unknown[] = [];

/**
 * A row held in memory, with the values its lookup columns' indexes hold it under, then (one entry per lookup
 * column after them) its place in the array of a value it shares with other rows; and its range columns' values (the
 * row may change since).
 */
type Slot = { row: Row; indexed: unknown[]; ranged: unknown[] };
/** Rows by key: one map per key column, nested (no key text is built); the last column's map holds the slots. */
type Level = Map<string, Level | Slot>;

/**
 * One table in memory, with an index per lookup column (null values are not found, as `= NULL` finds nothing).
 * `get` and `find` hand out the rows held, which `evolve` may change and `put` back: nothing is allocated then.
 */
class MemoryTable implements RowTable<Row> {
  private readonly root: Level = new Map();
  private readonly columns: readonly string[];
  private readonly lookups: readonly string[];
  /** Per lookup column (in `lookups`' order), value → slots. */
  private readonly indexes: SlotIndex[];
  private readonly rangeColumns: readonly string[];
  /** Per range column (in `rangeColumns`' order), its slots in value order. */
  private readonly ranges: RangeIndex<Slot>[];
  /** The slot `get` answered last: the row `evolve` most likely puts back next, found without its key. */
  private handed: Slot | undefined;

  constructor(spec: TableSpec) {
    this.columns = spec.key;
    this.lookups = spec.lookups ?? [];
    this.indexes = this.lookups.map(() => new Map());
    this.rangeColumns = spec.ranges ?? [];
    this.ranges = this.rangeColumns.map(() => new RangeIndex<Slot>());
  }

  /** The map holding the last key column's slots under the other key values (`row`'s, or `key`'s). */
  private level(row: Row | null, key: readonly unknown[], make: boolean): Map<string, Slot> | undefined {
    let level = this.root;
    for (let i = 0; i < this.columns.length - 1; i++) {
      const value = text(row ? row[this.columns[i]!] : key[i]);
      let next = level.get(value) as Level | undefined;
      if (!next) {
        if (!make) return undefined;
        level.set(value, (next = new Map()));
      }
      level = next;
    }
    return level as Map<string, Slot>;
  }

  // One or two key columns (every table's) are read from the arguments, without gathering them into an array.
  get(first: unknown, second?: unknown, ...more: readonly unknown[]) {
    const last = this.columns.length - 1;
    let slot: Slot | undefined;
    if (last === 0) slot = (this.root as Map<string, Slot>).get(text(first));
    else if (last === 1)
      slot = (this.root.get(text(first)) as Map<string, Slot> | undefined)?.get(text(second));
    else slot = this.level(null, [first, second, ...more], false)?.get(text(more[last - 2]));
    if (slot) this.handed = slot;
    return slot?.row;
  }

  put(row: Row) {
    const { columns, lookups, indexes, rangeColumns, ranges } = this;
    let slot = this.handed?.row === row ? this.handed : undefined;
    if (!slot) {
      const last = columns.length - 1;
      const level = last === 0 ? (this.root as Map<string, Slot>) : this.level(row, NO_KEY, true)!;
      const key = text(row[columns[last]!]);
      slot = level.get(key);
      if (!slot) {
        const n = lookups.length;
        let indexed = NONE;
        if (n > 0) {
          indexed = [];
          for (let i = 0; i < n; i++) indexed.push(row[lookups[i]!]);
          for (let i = 0; i < n; i++) indexed.push(0);
        }
        const added: Slot = {
          row,
          indexed,
          ranged: rangeColumns.length === 0 ? NONE : rangeColumns.map((column) => row[column]),
        };
        level.set(key, added);
        for (let i = 0; i < n; i++) if (indexed[i] != null) addSlot(indexes[i]!, indexed[i], added, n + i);
        for (let i = 0; i < rangeColumns.length; i++) ranges[i]!.add(added, added.ranged[i]);
        return;
      }
    }
    slot.row = row;
    for (let i = 0; i < lookups.length; i++) {
      const before = slot.indexed[i];
      const after = row[lookups[i]!];
      if (before === after) continue;
      if (before != null) removeSlot(indexes[i]!, before, slot, lookups.length + i);
      if (after != null) addSlot(indexes[i]!, after, slot, lookups.length + i);
      slot.indexed[i] = after;
    }
    for (let i = 0; i < rangeColumns.length; i++) {
      const before = slot.ranged[i];
      const after = row[rangeColumns[i]!];
      if (before === after) continue;
      ranges[i]!.remove(slot, before);
      ranges[i]!.add(slot, after);
      slot.ranged[i] = after;
    }
  }

  delete(first: unknown, second?: unknown, ...more: readonly unknown[]) {
    this.handed = undefined;
    const last = this.columns.length - 1;
    const level =
      last === 0
        ? (this.root as Map<string, Slot>)
        : last === 1
          ? (this.root.get(text(first)) as Map<string, Slot> | undefined)
          : this.level(null, [first, second, ...more], false);
    const k = text(last === 0 ? first : last === 1 ? second : more[last - 2]);
    const slot = level?.get(k);
    if (!slot) return;
    for (let i = 0; i < this.lookups.length; i++)
      if (slot.indexed[i] != null)
        removeSlot(this.indexes[i]!, slot.indexed[i], slot, this.lookups.length + i);
    for (let i = 0; i < this.rangeColumns.length; i++) this.ranges[i]!.remove(slot, slot.ranged[i]);
    level!.delete(k);
  }

  find(column: string, value: unknown): Row[] {
    const index = this.indexes[this.lookups.indexOf(column)];
    if (!index) throw new Error(`${column} is not a declared lookup`);
    const found: Row[] = [];
    const held = index.get(value);
    if (Array.isArray(held)) for (let i = 0; i < held.length; i++) found.push(held[i]!.row);
    else if (held) found.push(held.row);
    return found;
  }

  between(column: string, above: number | undefined, below: number | undefined): Row[] {
    return this.inRange(column, { above, below });
  }

  findNull(column: string): Row[] {
    return this.inRange(column, 'null');
  }

  private inRange(column: string, span: Span): Row[] {
    const range = this.ranges[this.rangeColumns.indexOf(column)];
    if (!range) throw new Error(`${column} is not a declared range`);
    return range.find(span).map((slot) => slot.row);
  }

  /** Every row held. */
  *rows(level: Level = this.root, depth = this.columns.length - 1): Generator<Row> {
    if (depth === 0) for (const slot of level.values()) yield (slot as Slot).row;
    else for (const next of level.values()) yield* this.rows(next as Level, depth - 1);
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
    rows: () => Object.fromEntries(Object.entries(tables).map(([name, t]) => [name, t.rows()])),
  };
}

/** A row a batch deleted. */
const DELETED = Symbol('deleted');

/**
 * A live batch's view of the tables: rows read from the database on first use and kept for the batch, changes kept
 * aside (`pending`) until `writeChanges` sends them, all in one statement. A row not loaded yet is a miss: `get`
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
  /** This pass's copies of loaded rows, as handed to `evolve` (which may change them): `loaded` stays as read. */
  copies = new Map<string, Row>();
  /** Misses of this pass: keys, and lookup values per column. */
  missingKeys: unknown[][] = [];
  missingLookups = new Map<string, unknown[]>();
  /** Per range column, the spans whose rows are all in `loaded`; and this pass's misses. */
  readonly spans = new Map<string, Span[]>();
  missingSpans: { column: string; span: Span }[] = [];

  constructor(
    readonly name: string,
    readonly spec: TableSpec,
  ) {
    for (const column of spec.lookups ?? []) this.found.set(column, new Map());
    for (const column of spec.ranges ?? []) this.spans.set(column, []);
  }

  get missed() {
    return this.missingKeys.length > 0 || this.missingLookups.size > 0 || this.missingSpans.length > 0;
  }

  get(...key: readonly unknown[]) {
    const k = keyText(key);
    const changed = this.pending.get(k);
    if (changed !== undefined) return changed === DELETED ? undefined : changed;
    const row = this.loaded.get(k);
    if (row !== undefined) return row === null ? undefined : this.copy(k, row);
    this.missingKeys.push([...key]);
    return undefined;
  }

  /** The pass's copy of a loaded row: a pass thrown away (a miss, a throw) leaves nothing changed behind. */
  private copy(key: string, row: Row): Row {
    let copy = this.copies.get(key);
    if (!copy) this.copies.set(key, (copy = structuredClone(row)));
    return copy;
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
      if (row) result.push(this.copy(key, row));
    }
    for (const row of this.pending.values()) if (row !== DELETED && row[column] === value) result.push(row);
    return result;
  }

  between(column: string, above: number | undefined, below: number | undefined): Row[] {
    return this.inRange(column, { above, below });
  }

  findNull(column: string): Row[] {
    return this.inRange(column, 'null');
  }

  /**
   * The rows in `span`: once a span holding it was loaded, every row it has is in `loaded` (rows loaded otherwise
   * are the database's too), as changed by this pass.
   */
  private inRange(column: string, span: Span): Row[] {
    const spans = this.spans.get(column);
    if (!spans) throw new Error(`${column} is not a declared range of ${this.name}`);
    if (
      !spans.some((s) => covers(s, span)) &&
      !this.missingSpans.some((m) => m.column === column && covers(m.span, span))
    )
      this.missingSpans.push({ column, span });
    const result: Row[] = [];
    for (const [key, row] of this.loaded)
      if (row && !this.pending.has(key) && inSpan(span, row[column])) result.push(this.copy(key, row));
    for (const row of this.pending.values())
      if (row !== DELETED && inSpan(span, row[column])) result.push(row);
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

/** Column → PostgreSQL type id, per table name (a rebuild's shadow copy has its live table's columns). */
const columnTypes = new Map<string, Map<string, number>>();
const TIMESTAMPTZ = 1184;

/**
 * A row read as JSON, as a read model computes it: timestamps as ISO text (`toISOString`, as an event's times),
 * bigints as numbers (counts), dates as `YYYY-MM-DD`; generated columns left out.
 */
function asValues(row: Row, spec: TableSpec, types: Map<string, number>): Row {
  for (const column of spec.generated ?? []) delete row[column];
  for (const column in row) {
    const value = row[column];
    if (typeof value === 'string' && types.get(column) === TIMESTAMPTZ)
      row[column] = new Date(value).toISOString();
  }
  return row;
}

/** One SELECT of a load, and what to do with the rows it answers. */
type Part = { sql: string; bindings: Knex.RawBinding[]; types?: true; take(rows: Row[]): void };

/**
 * Every table's rows named by this pass's misses (by key and by lookup), read in one round trip: a UNION of one
 * SELECT per table and lookup, each row as JSON tagged with its part, and the column types of tables not seen yet.
 */
async function loadMisses(tx: Knex.Transaction, missed: readonly BatchTable[]): Promise<void> {
  const parts: Part[] = [];
  const typesOf = (name: string) => columnTypes.get(name)!;
  for (const table of missed) {
    const { name, spec } = table;
    if (!columnTypes.has(name))
      parts.push({
        sql: `SELECT jsonb_object_agg(attname, atttypid::int) FROM pg_attribute
              WHERE attrelid = ?::text::regclass AND attnum > 0 AND NOT attisdropped`,
        bindings: [name],
        types: true,
        take: ([types]) => columnTypes.set(name, new Map(Object.entries(types ?? {}) as [string, number][])),
      });
    if (table.missingKeys.length > 0) {
      const keys = table.missingKeys;
      parts.push({
        sql: `SELECT to_jsonb(t) FROM ?? t WHERE (${spec.key.map(() => 't.??').join(', ')}) IN
                (SELECT ${spec.key.map(() => 'k.??').join(', ')} FROM jsonb_populate_recordset(NULL::??, ?::jsonb) k)`,
        bindings: [
          name,
          ...spec.key,
          ...spec.key,
          name,
          JSON.stringify(keys.map((values) => Object.fromEntries(spec.key.map((c, i) => [c, values[i]])))),
        ],
        take: (rows) => {
          for (const values of keys) table.loaded.set(keyText(values), null);
          table.remember(rows.map((r) => asValues(r, spec, typesOf(name))));
        },
      });
      table.missingKeys = [];
    }
    for (const [column, values] of table.missingLookups)
      parts.push({
        sql: `SELECT to_jsonb(t) FROM ?? t
              WHERE t.?? IN (SELECT k.?? FROM jsonb_populate_recordset(NULL::??, ?::jsonb) k)`,
        bindings: [name, column, column, name, JSON.stringify(values.map((v) => ({ [column]: v })))],
        take: (loaded) => {
          const rows = loaded.map((r) => asValues(r, spec, typesOf(name)));
          table.remember(rows);
          const index = table.found.get(column)!;
          for (const value of values) if (!index.has(value)) index.set(value, new Set());
          for (const row of rows) if (row[column] != null) addTo(index, row[column], keyOf(spec, row));
        },
      });
    table.missingLookups = new Map();
    for (const { column, span } of table.missingSpans) {
      const where = spanSql(column, span);
      parts.push({
        sql: `SELECT to_jsonb(t) FROM ?? t WHERE ${where.sql}`,
        bindings: [name, ...where.bindings],
        take: (loaded) => {
          table.remember(loaded.map((r) => asValues(r, spec, typesOf(name))));
          table.spans.get(column)!.push(span);
        },
      });
    }
    table.missingSpans = [];
  }
  const { rows } = (await tx.raw(
    parts.map((part, i) => `SELECT ${i} AS part, r.* FROM (${part.sql}) AS r (row)`).join('\nUNION ALL\n'),
    parts.flatMap((part) => part.bindings),
  )) as { rows: { part: number; row: Row }[] };
  const answers = parts.map((): Row[] => []);
  for (const { part, row } of rows) answers[part]!.push(row);
  // The types first: the rows are read with them.
  for (const types of [true, undefined])
    parts.forEach((part, i) => part.types === types && part.take(answers[i]!));
}

/** A pass's changes written back in one statement: an upsert and a deletion per table that has them. */
async function writeChanges(tx: Knex.Transaction, tables: readonly BatchTable[]): Promise<void> {
  const steps: { sql: string; bindings: Knex.RawBinding[] }[] = [];
  for (const table of tables) {
    const { name, spec } = table;
    const rows = [...table.pending.values()].filter((r): r is Row => r !== DELETED);
    if (rows.length > 0) {
      const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
      const others = columns.filter((c) => !spec.key.includes(c));
      steps.push({
        sql: `INSERT INTO ?? (${columns.map(() => '??').join(', ')})
              SELECT ${columns.map(() => 'r.??').join(', ')} FROM jsonb_populate_recordset(NULL::??, ?::jsonb) r
              ON CONFLICT (${spec.key.map(() => '??').join(', ')}) DO ${
                others.length === 0
                  ? 'NOTHING'
                  : `UPDATE SET ${others.map(() => '?? = EXCLUDED.??').join(', ')}`
              }`,
        bindings: [
          name,
          ...columns,
          ...columns,
          name,
          JSON.stringify(rows),
          ...spec.key,
          ...others.flatMap((c) => [c, c]),
        ],
      });
    }
    const gone = [...table.pending].filter(([, r]) => r === DELETED).map(([key]) => key);
    if (gone.length > 0) {
      const wanted = gone.map((text) => {
        const values = spec.key.length === 1 ? [text] : text.split(SEPARATOR);
        return Object.fromEntries(spec.key.map((c, i) => [c, values[i]]));
      });
      steps.push({
        sql: `DELETE FROM ?? t USING jsonb_populate_recordset(NULL::??, ?::jsonb) k
              WHERE ${spec.key.map(() => 't.?? = k.??').join(' AND ')}`,
        bindings: [name, name, JSON.stringify(wanted), ...spec.key.flatMap((c) => [c, c])],
      });
    }
  }
  if (steps.length === 0) return;
  // Each step touches other rows (a key is either kept or deleted), so their order within the statement is moot.
  await tx.raw(
    `WITH ${steps.map((step, i) => `w${i} AS (${step.sql})`).join(',\n')} SELECT 1`,
    steps.flatMap((step) => step.bindings),
  );
}

/**
 * Runs `evolve` over a batch against the live tables in `tx`: each pass evolves every event from the batch's start
 * with what is loaded, collecting misses; the misses are loaded (one round trip) and the batch evolved again, until
 * a pass misses nothing. That pass's changes are then written (one statement).
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
    for (const t of tables) {
      t.pending = new Map();
      t.copies = new Map();
    }
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
    await loadMisses(tx, missed);
  }
}

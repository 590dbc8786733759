import { RangeIndex, type Span } from './range-index';

/**
 * The rows a read model's `evolve` reads and writes (`read-model.ts`), behind one interface with two stores: in
 * memory for rebuilds (`memoryStore`), and over the projection's tables for live batches (`live-batch.ts`). Rows are
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
export const SEPARATOR = '\u0000';
const text = (value: unknown): string => (typeof value === 'string' ? value : String(value));
export function keyText(values: readonly unknown[]): string {
  let key = text(values[0]);
  for (let i = 1; i < values.length; i++) key += SEPARATOR + text(values[i]);
  return key;
}
export function keyOf(spec: TableSpec, row: Row): string {
  const columns = spec.key;
  let key = text(row[columns[0]!]);
  for (let i = 1; i < columns.length; i++) key += SEPARATOR + text(row[columns[i]!]);
  return key;
}

/** Adds `key` to `index[value]`. */
export const addTo = <K>(index: Map<unknown, Set<K>>, value: unknown, key: K) => {
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

import type { Knex } from 'knex';
import { covers, inSpan, spanSql, type Span } from './range-index';
import { addTo, keyOf, keyText, SEPARATOR, type Row, type RowTable, type TableSpec } from './row-store';

/**
 * A live batch of events evolved over the read models' tables (`read-model.ts`): the same synchronous `evolve` as a
 * rebuild's, over a view of the tables that reads rows on first use. Every read model of a projector's batch runs
 * here together, so a pass's misses are loaded in one round trip for all of them, and all their changes are written
 * in one statement (with the checkpoints: `checkpoints.ts`).
 */

/** A row a batch deleted. */
const DELETED = Symbol('deleted');

/**
 * A live batch's view of the tables: rows read from the database on first use and kept for the batch, changes kept
 * aside (`pending`) until the batch writes them (`changeSteps`), all in one statement. A row not loaded yet is a miss: `get`
 * answers undefined and `find` the rows known so far, and the batch is evolved again once every miss of the pass is
 * loaded (`evolveLive`), so `evolve` stays synchronous, the same code as in memory.
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

/**
 * `t`'s rows whose `columns` equal one of `records` (as SQL over `t` and its bindings), by the table's index. The
 * planner cannot tell how many records a JSON array holds and guesses 100: for `IN (SELECT … FROM
 * jsonb_populate_recordset(…))` alone it hashed them and read the whole table, so a like's batch took longer with
 * every post (13 ms with 7,600). An `= ANY (ARRAY(…))` per column is planned for a few values, by the index; with a
 * key of several columns those match a superset, which the IN then narrows to the records.
 */
function matching(
  table: string,
  columns: readonly string[],
  records: readonly Record<string, unknown>[],
): { sql: string; bindings: Knex.RawBinding[] } {
  const json = JSON.stringify(records);
  const anyOf = columns.map(
    () => 't.?? = ANY (ARRAY(SELECT k.?? FROM jsonb_populate_recordset(NULL::??, ?::jsonb) k))',
  );
  const sql =
    columns.length === 1
      ? anyOf[0]!
      : `${anyOf.join(' AND ')} AND (${columns.map(() => 't.??').join(', ')}) IN
           (SELECT ${columns.map(() => 'k.??').join(', ')} FROM jsonb_populate_recordset(NULL::??, ?::jsonb) k)`;
  return {
    sql,
    bindings: [
      ...columns.flatMap((c) => [c, c, table, json]),
      ...(columns.length === 1 ? [] : [...columns, ...columns, table, json]),
    ],
  };
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
      const where = matching(
        name,
        spec.key,
        keys.map((values) => Object.fromEntries(spec.key.map((c, i) => [c, values[i]]))),
      );
      parts.push({
        sql: `SELECT to_jsonb(t) FROM ?? t WHERE ${where.sql}`,
        bindings: [name, ...where.bindings],
        take: (rows) => {
          for (const values of keys) table.loaded.set(keyText(values), null);
          table.remember(rows.map((r) => asValues(r, spec, typesOf(name))));
        },
      });
      table.missingKeys = [];
    }
    for (const [column, values] of table.missingLookups) {
      const where = matching(
        name,
        [column],
        values.map((v) => ({ [column]: v })),
      );
      parts.push({
        sql: `SELECT to_jsonb(t) FROM ?? t WHERE ${where.sql}`,
        bindings: [name, ...where.bindings],
        take: (loaded) => {
          const rows = loaded.map((r) => asValues(r, spec, typesOf(name)));
          table.remember(rows);
          const index = table.found.get(column)!;
          for (const value of values) if (!index.has(value)) index.set(value, new Set());
          for (const row of rows) if (row[column] != null) addTo(index, row[column], keyOf(spec, row));
        },
      });
    }
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

/** A pass's changes as steps of one statement: an upsert and a deletion per table that has them. */
function changeSteps(tables: readonly BatchTable[]): Statement[] {
  const steps: Statement[] = [];
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
      const where = matching(name, spec.key, wanted);
      steps.push({ sql: `DELETE FROM ?? t WHERE ${where.sql}`, bindings: [name, ...where.bindings] });
    }
  }
  return steps;
}

/** One data-modifying SQL statement, to run as a step (`WITH sN AS (…)`) of one statement with others. */
export type Statement = { sql: string; bindings: Knex.RawBinding[]; name?: string };

/**
 * `steps` and then `final` (a SELECT: NOTIFYs, say) as ONE statement, one round trip. The steps write different
 * rows (a key is either kept or deleted; each table belongs to one read model; notices and checkpoints have tables
 * of their own), so their order within it is moot.
 */
export async function runInOneStatement(
  tx: Knex | Knex.Transaction,
  steps: readonly Statement[],
  final: Statement = { sql: 'SELECT 1', bindings: [] },
): Promise<void> {
  await tx.raw(
    steps.length === 0
      ? final.sql
      : `WITH ${steps.map((step, i) => `${step.name ?? `s${i}`} AS (${step.sql})`).join(',\n')}\n${final.sql}`,
    [...steps.flatMap((step) => step.bindings), ...final.bindings],
  );
}

/** SELECTs as one, evaluated one after another (a plain Append: the NOTIFYs go out in this order). */
export const unionAll = (selects: readonly Statement[]): Statement => ({
  sql: selects.map((s) => s.sql).join('\nUNION ALL\n'),
  bindings: selects.flatMap((s) => s.bindings),
});

/**
 * Runs `pass` (every read model's `evolve` over its events of the batch, from the batch's start) against the live
 * tables of `specs` in `tx`, with what is loaded, collecting misses; loads the misses (one round trip for all
 * tables) and runs the pass again, until a pass misses nothing. Answers that pass's changes as statement steps, for
 * the caller to write (`runInOneStatement`). A pass that throws after a miss was working from rows it did not have
 * yet: it is simply run again.
 */
export async function evolveLive(
  tx: Knex.Transaction,
  specs: Record<string, TableSpec>,
  pass: (store: Record<string, RowTable<Row>>) => void,
): Promise<{ changes: Statement[]; passes: number }> {
  const tables = Object.entries(specs).map(([name, spec]) => new BatchTable(name, spec));
  const store = Object.fromEntries(tables.map((t) => [t.name, t]));
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
      return { changes: changeSteps(tables), passes };
    }
    await loadMisses(tx, missed);
  }
}

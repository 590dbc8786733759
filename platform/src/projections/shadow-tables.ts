import type { Knex } from 'knex';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { RecordedEvent } from '../event-store/event-store';
import { NO_NOTICES } from './notices';
import type { FoldedRow, Projection } from './projection';

/** Rows per COPY when a fold's rows are loaded: one short transaction each (tens of milliseconds). */
export const LOAD_CHUNK = 20_000;

/**
 * Shadow copies of a projection's tables, for a blue/green rebuild (see 'Projections' in docs/architecture.md).
 *
 * The copies are TEMPORARY tables of the same names, created `LIKE` the live ones on one dedicated connection.
 * PostgreSQL resolves an unqualified name to the session's temporary table first, so the projection's own
 * `apply` (which names its tables unqualified) writes the shadow copies on that connection, unchanged, while every
 * other connection (readers, the live projector) still sees only the live tables. Nothing outlives the session:
 * a crashed rebuild leaves nothing behind, and no CREATE privilege on the database is needed.
 *
 * `mergeIntoLive` then makes the live tables equal to the shadow copies inside the caller's transaction, touching
 * only the rows that differ: readers keep reading the old rows until that transaction commits (no table lock
 * beyond ROW EXCLUSIVE, which blocks no reader), then see the new ones all at once.
 */
export class ShadowTables {
  private constructor(
    private readonly knex: Knex,
    private readonly projection: Projection,
    /** The dedicated connection: the shadow copies exist only here. */
    readonly connection: pg.Client,
    private readonly tables: readonly LiveTable[],
    /** Indexes of the live tables left off the copies until `apply` first runs (see `deferIndexes`). */
    private deferred: string[],
  ) {
    this.handled = new Set(projection.handles);
  }

  private readonly handled: ReadonlySet<string>;

  static async create(knex: Knex, projection: Projection): Promise<ShadowTables> {
    const connection = (await knex.client.acquireRawConnection()) as pg.Client;
    try {
      // Temporary tables live in local buffers; the default 8 MB spills to disk early. Only settable before the
      // session first touches a temporary table, which this fresh connection has not.
      await connection.query(`SET temp_buffers = '1GB'`);
      const tables = await resolveLiveTables(connection, projection);
      for (const t of tables) {
        await connection.query(`CREATE TEMPORARY TABLE ${ident(t.name)} (LIKE ${t.qualified} INCLUDING ALL)`);
      }
      const deferred = await deferIndexes(connection, tables);
      // The whole design rests on this: the projection's unqualified names now mean the shadow copies here.
      const { rows } = await connection.query<{ name: string; temporary: boolean }>(
        `SELECT t.name, coalesce(c.relpersistence = 't', false) AS temporary
         FROM unnest($1::text[]) AS t(name) LEFT JOIN pg_class c ON c.oid = to_regclass(quote_ident(t.name))`,
        [tables.map((t) => t.name)],
      );
      const missed = rows.filter((r) => !r.temporary).map((r) => r.name);
      if (missed.length > 0)
        throw new Error(
          `rebuild of ${projection.name}: ${missed.join(', ')} does not resolve to its shadow copy; ` +
            `is pg_temp placed after other schemas in search_path?`,
        );
      return new ShadowTables(knex, projection, connection, tables, deferred);
    } catch (error) {
      await knex.client.destroyRawConnection(connection).catch(() => {});
      throw error;
    }
  }

  /** A transaction on the dedicated connection: unqualified table names resolve to the shadow copies. */
  transaction<T>(fn: (tx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.knex.transaction(fn, { connection: this.connection });
  }

  /** Applies one event to the shadow copies, inside a transaction on the dedicated connection. History is not news. */
  async apply(tx: Knex.Transaction, event: RecordedEvent): Promise<void> {
    if (!this.handled.has(event.type)) return;
    if (this.deferred.length > 0) {
      // apply's lookups by these columns would each scan the whole copy; one bulk build is cheaper.
      for (const definition of this.deferred) await tx.raw(definition);
      this.deferred = [];
    }
    await this.projection.apply(tx, event, NO_NOTICES);
  }

  /**
   * Loads a fold's rows (`Projection.fold`) into the shadow copies, which must still be empty, with COPY (text
   * format: no JSON to parse server-side, which matters at millions of rows). Each COPY
   * takes LOAD_CHUNK rows and is its own short statement: a long one would hold back the log's visibility horizon for
   * every subscriber. Every row of a table must carry the same columns (a forgotten one is an error, not a NULL).
   */
  async load(rows: Record<string, Iterable<FoldedRow>>): Promise<number> {
    let loaded = 0;
    for (const [name, iterable] of Object.entries(rows)) {
      if (!this.tables.some((t) => t.name === name))
        throw new Error(
          `rebuild of ${this.projection.name}: its fold answered rows for ${name}, not one of its tables`,
        );
      // While PostgreSQL copies one chunk, the next is gathered and encoded here.
      let copy: CopyInto | null = null;
      let sending: Promise<void> = Promise.resolve();
      let chunk: FoldedRow[] = [];
      const send = async (rows: FoldedRow[]) => {
        const text = copy!.encode(rows);
        await sending;
        sending = copy!.send(text);
        sending.catch(() => {}); // awaited before the next chunk, or in `finally`
        loaded += rows.length;
      };
      try {
        for (const row of iterable) {
          copy ??= await CopyInto.prepare(this.connection, this.projection.name, name, Object.keys(row));
          chunk.push(row);
          if (chunk.length >= LOAD_CHUNK) {
            await send(chunk);
            chunk = [];
          }
        }
        if (copy && chunk.length > 0) await send(chunk);
      } finally {
        await sending;
      }
    }
    return loaded;
  }

  /**
   * Before a shadow transaction commits: the projection wrote nothing but shadow copies. A table named with its
   * schema, or one it does not declare, would otherwise be changed twice (by the live projector and the replay).
   */
  async assertOnlyShadowsWritten(tx: Knex.Transaction): Promise<void> {
    const { rows } = await tx.raw<{ rows: { name: string }[] }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name
       FROM pg_stat_xact_user_tables s
       JOIN pg_class c ON c.oid = s.relid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relpersistence <> 't' AND s.n_tup_ins + s.n_tup_upd + s.n_tup_del > 0`,
    );
    if (rows.length > 0)
      throw new Error(
        `rebuild of ${this.projection.name}: apply wrote ${rows.map((r) => r.name).join(', ')}, ` +
          `which is not a shadow copy; a projection names only its own tables, unqualified`,
      );
  }

  /** Fresh planner statistics for the merge (autovacuum never sees temporary tables). */
  async analyze(): Promise<void> {
    // The merge's plan needs row counts and rough distributions, not the 30,000-row sample of the default.
    await this.connection.query('SET default_statistics_target = 10');
    for (const t of this.tables) await this.connection.query(`ANALYZE pg_temp.${ident(t.name)}`);
  }

  /**
   * Inside `tx` (on the dedicated connection, holding the projection's checkpoint row): makes every live table
   * equal to its shadow copy, changing only rows that differ. Answers how many rows were written.
   */
  async mergeIntoLive(tx: Knex.Transaction): Promise<number> {
    let changed = 0;
    const run = async (sql: string) => {
      const r = await tx.raw<{ rowCount: number | null }>(sql);
      changed += r.rowCount ?? 0;
    };
    const plans: { table: LiveTable; plan: MergePlan }[] = [];
    for (const table of this.tables) {
      // Blocks no reader; keeps a migration from changing the table between the shape check and the merge.
      await tx.raw(`LOCK TABLE ${table.qualified} IN ROW EXCLUSIVE MODE`);
      const live = await shapeOf(tx, table.qualified);
      const shadow = await shapeOf(tx, `pg_temp.${ident(table.name)}`);
      if (JSON.stringify(live) !== JSON.stringify(shadow))
        throw new Error(
          `rebuild of ${this.projection.name}: ${table.qualified} changed shape during the rebuild; run it again`,
        );
      const { rows } = await tx.raw<{ rows: { other: boolean }[] }>(
        `SELECT EXISTS (SELECT 1 FROM pg_index WHERE indrelid = ?::regclass AND indisunique AND NOT indisprimary)
             OR EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = ?::regclass AND contype = 'x') AS other`,
        [table.qualified, table.qualified],
      );
      const otherUnique = rows[0]?.other === true;
      plans.push({
        table,
        plan: mergePlan(table.qualified, `pg_temp.${ident(table.name)}`, live, otherUnique),
      });
    }
    const order = await parentsFirst(tx, this.tables);
    // Children before parents when removing, parents before children when adding: foreign keys between the
    // projection's own tables hold after every statement.
    for (const i of [...order].reverse()) {
      const { plan } = plans[i]!;
      if (plan.kind === 'replace') {
        const differs = await tx.raw<{ rows: { differs: boolean }[] }>(plan.differs);
        plan.needed = differs.rows[0]?.differs === true;
      }
      if (plan.kind === 'keyed' || plan.needed) await run(plan.remove);
    }
    for (const i of order) {
      const { table, plan } = plans[i]!;
      if (plan.kind === 'keyed' && plan.update) await run(plan.update);
      if (plan.kind === 'keyed' || plan.needed) await run(plan.insert);
      await syncSequences(tx, table.qualified);
    }
    return changed;
  }

  /** Ends the dedicated session, and with it the shadow copies. */
  async close(): Promise<void> {
    await this.knex.client.destroyRawConnection(this.connection).catch(() => {});
  }
}

export type LiveTable = { name: string; oid: string; qualified: string };

/**
 * Drops from the fresh copies every index that enforces nothing (not unique, no constraint) and answers their
 * definitions. A fold's rows load and merge without them: the merge joins on keys, and keeping a dozen extra
 * indexes current cost a third of a large load. `apply` needs them (its lookups would scan the copy), so they are
 * built in bulk before its first event. Unique indexes stay: apply's ON CONFLICT needs them, and they catch a fold
 * answering one key twice.
 */
async function deferIndexes(connection: pg.Client, tables: readonly LiveTable[]): Promise<string[]> {
  const { rows } = await connection.query<{ name: string; definition: string }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name, pg_get_indexdef(i.indexrelid) AS definition
     FROM pg_index i
     JOIN pg_class c ON c.oid = i.indexrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE i.indrelid = ANY ($1::regclass[]) AND NOT i.indisunique
       AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conindid = i.indexrelid)`,
    [tables.map((t) => `pg_temp.${ident(t.name)}`)],
  );
  for (const r of rows) await connection.query(`DROP INDEX ${r.name}`);
  return rows.map((r) => r.definition);
}

type Column = { name: string; type: string; identity: string; generated: string; key: boolean };

type MergePlan =
  | { kind: 'keyed'; remove: string; update?: string; insert: string }
  | { kind: 'replace'; differs: string; remove: string; insert: string; needed?: boolean };

/** How a value is written for one column in COPY's text format. */
type CellKind = 'json' | 'array' | 'plain';

/** COPY's text escapes, as COPY TO writes them (COPY FROM reads every one of them too). */
const COPY_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};
const NEEDS_ESCAPE = /[\\\b\f\n\r\t\v]/;
// Most values need no escape: testing first spares a replace (and a new string) per cell.
export const copyEscape = (text: string) =>
  NEEDS_ESCAPE.test(text) ? text.replace(/[\\\b\f\n\r\t\v]/g, (c) => COPY_ESCAPES[c]!) : text;

/** Sends `text` (whole COPY lines) through `COPY … FROM STDIN` on `connection`. */
export async function copyLines(connection: pg.Client, sql: string, text: string): Promise<void> {
  await pipeline(Readable.from([text]), connection.query(copyFrom(sql)));
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    // Only a bigint (a log position, say) throws: written as its digits. A replacer on every call would cost more.
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  }
}

/** A value as COPY's text format reads it, cast by PostgreSQL to the column's type as `apply`'s bindings are. */
export function cell(value: unknown, kind: CellKind): string {
  if (value === null || value === undefined) return '\\N';
  if (kind === 'json') return copyEscape(jsonText(value));
  switch (typeof value) {
    case 'string':
      return copyEscape(value);
    case 'number':
    case 'bigint':
      return String(value);
    case 'boolean':
      return value ? 't' : 'f';
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value) && kind === 'array')
    return copyEscape(
      `{${value.map((v) => (v === null || v === undefined ? 'NULL' : `"${String(v).replace(/["\\]/g, '\\$&')}"`)).join(',')}}`,
    );
  return copyEscape(jsonText(value));
}

/** COPY into one shadow copy, for rows carrying `columns`. */
class CopyInto {
  private constructor(
    private readonly connection: pg.Client,
    private readonly projection: string,
    private readonly table: string,
    private readonly columns: { name: string; kind: CellKind }[],
  ) {}

  static async prepare(connection: pg.Client, projection: string, table: string, columns: string[]) {
    const { rows } = await connection.query<{ name: string; type: string }>(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_attribute a WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped`,
      [`pg_temp.${ident(table)}`],
    );
    const types = new Map(rows.map((r) => [r.name, r.type]));
    return new CopyInto(
      connection,
      projection,
      table,
      columns.map((name) => {
        const type = types.get(name);
        if (!type)
          throw new Error(`rebuild of ${projection}: its fold wrote ${table}.${name}, which is no column`);
        return {
          name,
          kind: type === 'json' || type === 'jsonb' ? 'json' : type.endsWith('[]') ? 'array' : 'plain',
        };
      }),
    );
  }

  /** The rows as COPY text. */
  encode(rows: FoldedRow[]): string {
    const { columns, projection, table } = this;
    const lines = rows.map((row) => {
      let line = '';
      for (let i = 0; i < columns.length; i++) {
        const c = columns[i]!;
        const value = row[c.name];
        if (value === undefined && !(c.name in row))
          throw new Error(
            `rebuild of ${projection}: a ${table} row of its fold has no ${c.name}: ${jsonText(row)}`,
          );
        line += (i === 0 ? '' : '\t') + cell(value, c.kind);
      }
      return line;
    });
    return lines.join('\n') + '\n';
  }

  async send(text: string): Promise<void> {
    const sql = `COPY pg_temp.${ident(this.table)} (${this.columns.map((c) => ident(c.name)).join(', ')}) FROM STDIN`;
    await copyLines(this.connection, sql, text);
  }
}

export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function resolveLiveTables(connection: pg.Client, projection: Projection): Promise<LiveTable[]> {
  const { rows } = await connection.query<{ name: string; oid: string | null; qualified: string | null }>(
    `SELECT t.name, c.oid::text AS oid, format('%I.%I', n.nspname, c.relname) AS qualified
     FROM unnest($1::text[]) WITH ORDINALITY AS t(name, ord)
     LEFT JOIN pg_class c ON c.oid = to_regclass(quote_ident(t.name)) AND c.relkind IN ('r', 'p')
     LEFT JOIN pg_namespace n ON n.oid = c.relnamespace
     ORDER BY t.ord`,
    [[...new Set(projection.tables)]],
  );
  return rows.map((r) => {
    if (!r.oid || !r.qualified)
      throw new Error(`rebuild of ${projection.name}: table ${r.name} does not exist`);
    return { name: r.name, oid: r.oid, qualified: r.qualified };
  });
}

export async function shapeOf(tx: Knex | Knex.Transaction, relation: string): Promise<Column[]> {
  const { rows } = await tx.raw<{ rows: Column[] }>(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
            a.attidentity::text AS identity, a.attgenerated::text AS generated,
            coalesce(a.attnum = ANY (i.indkey::int2[]), false) AS key
     FROM pg_attribute a
     LEFT JOIN pg_index i ON i.indrelid = a.attrelid AND i.indisprimary
     WHERE a.attrelid = ?::regclass AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY a.attnum`,
    [relation],
  );
  return rows;
}

/**
 * The statements that turn `live` into a copy of `shadow`. Columns of types whose equality means "the same value"
 * (text, uuid, integers, booleans, timestamps) are compared with IS DISTINCT FROM; every other one by its text form,
 * which every type has (json has no equality operator) and which tells apart values an equality would call equal
 * (numeric 1.0 and 1.00, jsonb too). Formatting each row as text cost most of a large swap.
 *
 * - With a primary key: delete keys the shadow lacks, update rows whose other columns differ, insert missing keys.
 *   An update in place could trip another unique constraint halfway (PostgreSQL checks them row by row), and a
 *   GENERATED ALWAYS identity outside the key cannot be updated at all: such tables delete every differing row
 *   and insert the shadow's instead, so each step holds a subset of the final rows.
 * - Without one (duplicates possible): if the two differ as multisets, replace the whole contents.
 *
 * Generated columns are never written; they follow from the others.
 */
/** Types (as format_type names them) whose equality holds only for one and the same value. */
const EXACT_EQUALITY =
  /^(text|uuid|boolean|smallint|integer|bigint|date|timestamp(\(\d\))? with(out)? time zone|character varying(\(\d+\))?)$/;

function mergePlan(live: string, shadow: string, columns: Column[], otherUnique: boolean): MergePlan {
  const written = columns.filter((c) => c.generated === '');
  const list = (alias: string, cs: Column[]) => cs.map((c) => `${alias}.${ident(c.name)}`).join(', ');
  const text = (alias: string, cs: Column[]) => `ROW(${list(alias, cs)})::text`;
  /** SQL true when rows `s` and `l` differ in `cs`. */
  const differ = (cs: Column[]) => {
    const exact = cs.filter((c) => EXACT_EQUALITY.test(c.type));
    const textual = cs.filter((c) => !EXACT_EQUALITY.test(c.type));
    return [
      ...(exact.length > 0 ? [`(${list('s', exact)}) IS DISTINCT FROM (${list('l', exact)})`] : []),
      ...(textual.length > 0 ? [`${text('s', textual)} <> ${text('l', textual)}`] : []),
    ].join(' OR ');
  };
  const names = written.map((c) => ident(c.name)).join(', ');
  const overriding = written.some((c) => c.identity === 'a') ? ' OVERRIDING SYSTEM VALUE' : '';
  const keys = written.filter((c) => c.key);
  if (keys.length === 0)
    return {
      kind: 'replace',
      differs: `SELECT EXISTS (
          (SELECT ${text('l', written)} FROM ${live} AS l EXCEPT ALL SELECT ${text('s', written)} FROM ${shadow} AS s)
          UNION ALL
          (SELECT ${text('s', written)} FROM ${shadow} AS s EXCEPT ALL SELECT ${text('l', written)} FROM ${live} AS l)
        ) AS differs`,
      remove: `DELETE FROM ${live}`,
      insert: `INSERT INTO ${live} (${names})${overriding} SELECT ${list('s', written)} FROM ${shadow} AS s`,
    };
  const sameKey = keys.map((c) => `s.${ident(c.name)} = l.${ident(c.name)}`).join(' AND ');
  const others = written.filter((c) => !c.key);
  const sameRow = others.length > 0 ? ` AND NOT (${differ(others)})` : '';
  const insert = `INSERT INTO ${live} (${names})${overriding}
     SELECT ${list('s', written)} FROM ${shadow} AS s
     WHERE NOT EXISTS (SELECT 1 FROM ${live} AS l WHERE ${sameKey})`;
  if (otherUnique || others.some((c) => c.identity === 'a'))
    return {
      kind: 'keyed',
      remove: `DELETE FROM ${live} AS l WHERE NOT EXISTS (SELECT 1 FROM ${shadow} AS s WHERE ${sameKey}${sameRow})`,
      insert,
    };
  return {
    kind: 'keyed',
    remove: `DELETE FROM ${live} AS l WHERE NOT EXISTS (SELECT 1 FROM ${shadow} AS s WHERE ${sameKey})`,
    update:
      others.length > 0
        ? `UPDATE ${live} AS l SET ${others.map((c) => `${ident(c.name)} = s.${ident(c.name)}`).join(', ')}
           FROM ${shadow} AS s WHERE ${sameKey} AND (${differ(others)})`
        : undefined,
    insert,
  };
}

/** Indexes into `tables`, parents before the tables whose foreign keys point at them (cycles keep their order). */
export async function parentsFirst(tx: Knex.Transaction, tables: readonly LiveTable[]): Promise<number[]> {
  const oids = tables.map((t) => t.oid);
  const { rows } = await tx.raw<{ rows: { child: string; parent: string }[] }>(
    `SELECT conrelid::text AS child, confrelid::text AS parent FROM pg_constraint
     WHERE contype = 'f' AND conrelid = ANY (?::oid[]) AND confrelid = ANY (?::oid[]) AND conrelid <> confrelid`,
    [oids, oids],
  );
  const order: number[] = [];
  const placed = new Set<number>();
  const visiting = new Set<number>();
  const visit = (i: number) => {
    if (placed.has(i) || visiting.has(i)) return;
    visiting.add(i);
    for (const r of rows) if (r.child === oids[i]) visit(oids.indexOf(r.parent));
    visiting.delete(i);
    placed.add(i);
    order.push(i);
  };
  tables.forEach((_, i) => visit(i));
  return order;
}

/**
 * Rows copied from the shadow carry values of the shadow's own identity/serial sequences: move the live sequence
 * past them, never back, so the live projector's next insert cannot collide.
 */
export async function syncSequences(tx: Knex.Transaction, live: string): Promise<void> {
  const { rows } = await tx.raw<{ rows: { column: string; sequence: string }[] }>(
    `SELECT a.attname AS column, pg_get_serial_sequence(?, a.attname) AS sequence
     FROM pg_attribute a
     WHERE a.attrelid = ?::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
       AND pg_get_serial_sequence(?, a.attname) IS NOT NULL`,
    [live, live, live],
  );
  for (const r of rows) {
    await tx.raw(
      `SELECT setval(q.seq, m.value)
       FROM (SELECT ?::regclass AS seq) AS q
       JOIN pg_sequence p ON p.seqrelid = q.seq
       CROSS JOIN (SELECT max(${ident(r.column)})::bigint AS value FROM ${live}) AS m
       WHERE p.seqincrement > 0 AND m.value >= coalesce(pg_sequence_last_value(q.seq) + 1, p.seqstart)`,
      [r.sequence],
    );
  }
}

import type { Knex } from 'knex';
import { StringDecoder } from 'node:string_decoder';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { FoldedRow, Projection } from './projection';
import {
  cell,
  copyEscape,
  copyLines,
  ident,
  LOAD_CHUNK,
  resolveLiveTables,
  shapeOf,
  syncSequences,
  type LiveTable,
} from './shadow-tables';

/**
 * A fold's rows written straight into the live tables, only where they differ (rebuild.ts). Inside the swap's
 * transaction, holding the live checkpoint row (so nobody else writes these tables meanwhile), each live table is
 * read with COPY TO and compared here, row by row, with the fold's rows in PostgreSQL's own text form; then the rows
 * that differ are deleted and the fold's versions COPYed in. An intact model is read and nothing is written; a first
 * build loads its rows once, with no shadow copy to fill and merge. Readers see the old rows or the new ones, never a
 * partial model.
 *
 * Comparing text needs each value as PostgreSQL would print it: `canonicalFor` knows the column types below. A value
 * it cannot vouch for (a timestamp in another zone, a JSON number in exponent form) marks its row as differing, so it
 * is rewritten (correct, only slower). A projection with a column of any other type, an identity column (whose values
 * only the shadow copy's numbering reproduces) or a foreign key (a changed row is deleted and inserted again)
 * rebuilds through shadow copies instead.
 */

/** A value's text as COPY TO prints it (unescaped), or undefined when this cannot tell. */
type Canonical = (value: unknown) => string | undefined;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGER = /^-?(0|[1-9]\d*)$/;
/** What `toISOString` and the events' own times look like; PostgreSQL prints UTC as `+00` and trims zeros. */
const UTC_TIME = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(?:Z|\+00:?00)$/;

const text: Canonical = (v) => (typeof v === 'string' ? v : undefined);
const integer: Canonical = (v) =>
  (typeof v === 'number' && Number.isSafeInteger(v)) || typeof v === 'bigint'
    ? String(v)
    : typeof v === 'string' && INTEGER.test(v)
      ? v
      : undefined;

function timestamptz(v: unknown): string | undefined {
  const iso = v instanceof Date ? (Number.isNaN(v.getTime()) ? undefined : v.toISOString()) : v;
  if (typeof iso !== 'string') return undefined;
  const m = UTC_TIME.exec(iso);
  if (!m) return undefined;
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  return `${m[1]} ${m[2]}${fraction ? `.${fraction}` : ''}+00`;
}

/** jsonb's own output: keys by length then bytes, `", "` and `": "` between, numbers as numeric prints them. */
function jsonb(v: unknown): string | undefined {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number': {
      if (!Number.isFinite(v)) return undefined;
      const s = String(v);
      return /e/i.test(s) ? undefined : s;
    }
    case 'bigint':
      return JSON.stringify(v.toString()); // as the COPY encoding writes it
    case 'object':
      break;
    default:
      return undefined;
  }
  if (Array.isArray(v)) {
    const items: string[] = [];
    for (const item of v) {
      const t =
        item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 'null' : jsonb(item);
      if (t === undefined) return undefined;
      items.push(t);
    }
    return `[${items.join(', ')}]`;
  }
  const o = v as Record<string, unknown> & { toJSON?: () => unknown };
  if (typeof o.toJSON === 'function') return jsonb(o.toJSON());
  const proto = Object.getPrototypeOf(o);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const keys = Object.keys(o).filter((k) => {
    const x = o[k];
    return x !== undefined && typeof x !== 'function' && typeof x !== 'symbol';
  });
  // By byte length then bytes: for printable ASCII keys, by length then code units. Others take the slow path.
  if (keys.some((k) => /[^ -~]/.test(k))) return undefined;
  keys.sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const entries: string[] = [];
  for (const k of keys) {
    const t = jsonb(o[k]);
    if (t === undefined) return undefined;
    entries.push(`${JSON.stringify(k)}: ${t}`);
  }
  return `{${entries.join(', ')}}`;
}

/** Column types (as format_type names them) whose text form `canonicalFor` reproduces. */
const CANONICAL: Record<string, Canonical> = {
  text,
  'character varying': text,
  uuid: (v) => (typeof v === 'string' && UUID.test(v) ? v.toLowerCase() : undefined),
  smallint: integer,
  integer,
  bigint: integer,
  boolean: (v) => (v === true ? 't' : v === false ? 'f' : undefined),
  'timestamp with time zone': timestamptz,
  jsonb,
};
export const canonicalFor = (type: string): Canonical | undefined =>
  CANONICAL[type.replace(/^character varying\(\d+\)$/, 'character varying')];

/** Undoes `copyEscape` (for key values read back from COPY TO). */
const UNESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
const unescapeOut = (s: string) => s.replace(/\\(.)/g, (_, c: string) => UNESCAPES[c] ?? c);

type Plan = {
  table: LiveTable;
  /** Written columns, keys first: the order of both the COPY TO select list and the encoded lines. */
  columns: { name: string; type: string; key: boolean; canonical: Canonical; cellKind: 'json' | 'plain' }[];
  keys: number;
};

/** The plans for every table of `projection`, or null when one of them cannot be compared here. */
export async function planInPlace(
  knex: Knex,
  connection: pg.Client,
  projection: Projection,
): Promise<Plan[] | null> {
  const tables = await resolveLiveTables(connection, projection);
  // A changed row is deleted and inserted again: a foreign key from or to it could refuse that, or cascade.
  const { rows: related } = await connection.query<{ any: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_constraint WHERE contype = 'f'
       AND (conrelid = ANY ($1::oid[]) OR confrelid = ANY ($1::oid[]))) AS any`,
    [tables.map((t) => t.oid)],
  );
  if (related[0]?.any) return null;
  const plans: Plan[] = [];
  for (const table of tables) {
    const shape = await shapeOf(knex, table.qualified);
    const written = shape.filter((c) => c.generated === '');
    if (written.some((c) => c.identity !== '' || !canonicalFor(c.type))) return null;
    const ordered = [...written.filter((c) => c.key), ...written.filter((c) => !c.key)];
    plans.push({
      table,
      columns: ordered.map((c) => ({
        name: c.name,
        type: c.type,
        key: c.key,
        canonical: canonicalFor(c.type)!,
        cellKind: c.type === 'jsonb' ? 'json' : 'plain',
      })),
      keys: ordered.filter((c) => c.key).length,
    });
  }
  return plans;
}

/**
 * Inside the caller's transaction on `connection` (holding the projection's checkpoint row): makes every live table
 * equal to the fold's rows, writing only rows that differ. Answers how many rows were written (deleted + inserted).
 */
export async function writeInPlace(
  tx: Knex.Transaction,
  connection: pg.Client,
  projection: Projection,
  plans: Plan[],
  rows: Record<string, Iterable<FoldedRow>>,
): Promise<number> {
  for (const name of Object.keys(rows))
    if (!plans.some((p) => p.table.name === name))
      throw new Error(
        `rebuild of ${projection.name}: its fold answered rows for ${name}, not one of its tables`,
      );
  // COPY TO prints times in the session's zone and style: the ones `canonical` writes.
  await tx.raw(`SET LOCAL TimeZone = 'UTC'`);
  await tx.raw(`SET LOCAL DateStyle = 'ISO, YMD'`);
  const changes: { removed: string[]; removeAll: boolean; added: string[] }[] = [];
  for (const plan of plans) {
    // Blocks no reader; keeps a migration from changing the table between the shape read and the writes.
    await tx.raw(`LOCK TABLE ${plan.table.qualified} IN ROW EXCLUSIVE MODE`);
    const shape = await shapeOf(tx, plan.table.qualified);
    const names = shape.filter((c) => c.generated === '').map((c) => c.name);
    if (names.length !== plan.columns.length || plan.columns.some((c) => !names.includes(c.name)))
      throw new Error(
        `rebuild of ${projection.name}: ${plan.table.qualified} changed shape during the rebuild; run it again`,
      );
    changes.push(await differences(connection, projection, plan, rows[plan.table.name] ?? []));
  }
  let written = 0;
  for (const i of plans.keys()) {
    const { table, columns, keys } = plans[i]!;
    const { removed, removeAll } = changes[i]!;
    if (removeAll) {
      written += (await tx.raw<{ rowCount: number | null }>(`DELETE FROM ${table.qualified}`)).rowCount ?? 0;
      continue;
    }
    if (removed.length === 0) continue;
    const keyColumns = columns.slice(0, keys);
    const arrays = keyColumns.map((_, k) => removed.map((key) => unescapeOut(key.split('\t')[k]!)));
    const r = await tx.raw<{ rowCount: number | null }>(
      `DELETE FROM ${table.qualified} AS l
       USING unnest(${keyColumns.map(() => '?::text[]').join(', ')}) AS d(${keyColumns.map((_, k) => `k${k}`).join(', ')})
       WHERE ${keyColumns.map((c, k) => `l.${ident(c.name)} = d.k${k}::${c.type}`).join(' AND ')}`,
      arrays,
    );
    written += r.rowCount ?? 0;
  }
  for (const i of plans.keys()) {
    const { table, columns } = plans[i]!;
    const { added } = changes[i]!;
    const sql = `COPY ${table.qualified} (${columns.map((c) => ident(c.name)).join(', ')}) FROM STDIN`;
    for (let at = 0; at < added.length; at += LOAD_CHUNK) {
      const lines = added.slice(at, at + LOAD_CHUNK);
      await copyLines(connection, sql, lines.join('\n') + '\n');
    }
    written += added.length;
    if (added.length > 0) await syncSequences(tx, table.qualified);
  }
  return written;
}

/**
 * The live table read with COPY TO against the fold's rows: the keys of live rows to remove (changed or gone) and
 * the lines to add (changed or new). A table without a key is replaced whole when the two differ as multisets.
 */
async function differences(
  connection: pg.Client,
  projection: Projection,
  plan: Plan,
  rows: Iterable<FoldedRow>,
): Promise<{ removed: string[]; removeAll: boolean; added: string[] }> {
  const { columns, keys, table } = plan;
  const live = new Map<string, string>();
  const counts = new Map<string, number>();
  let liveRows = 0;
  const select = `COPY (SELECT ${columns.map((c) => ident(c.name)).join(', ')} FROM ${table.qualified}) TO STDOUT`;
  const decoder = new StringDecoder('utf8');
  let rest = '';
  const take = (line: string) => {
    liveRows++;
    if (keys === 0) counts.set(line, (counts.get(line) ?? 0) + 1);
    else live.set(keyOf(line, keys), line);
  };
  for await (const chunk of connection.query(copyTo(select)) as AsyncIterable<Buffer>) {
    const lines = (rest + decoder.write(chunk)).split('\n');
    rest = lines.pop()!;
    for (const line of lines) take(line);
  }
  rest += decoder.end();
  if (rest !== '') take(rest);

  const removed: string[] = [];
  const added: string[] = [];
  let differs = false;
  let first = true;
  for (const row of rows) {
    if (first) {
      first = false;
      const extra = Object.keys(row).find((name) => !columns.some((c) => c.name === name));
      if (extra)
        throw new Error(
          `rebuild of ${projection.name}: its fold wrote ${table.name}.${extra}, which is no column`,
        );
    }
    const { line, certain } = encode(projection, table.name, columns, row);
    if (keys === 0) {
      added.push(line);
      const n = certain ? (counts.get(line) ?? 0) : 0;
      if (n === 0) differs = true;
      else if (n === 1) counts.delete(line);
      else counts.set(line, n - 1);
      continue;
    }
    const key = keyOf(line, keys);
    const was = live.get(key);
    if (was === undefined) added.push(line);
    else {
      live.delete(key);
      if (!certain || was !== line) {
        removed.push(key);
        added.push(line);
      }
    }
  }
  if (keys === 0) {
    const same = !differs && counts.size === 0;
    return same
      ? { removed: [], removeAll: false, added: [] }
      : { removed: [], removeAll: liveRows > 0, added };
  }
  for (const key of live.keys()) removed.push(key);
  return { removed, removeAll: false, added };
}

/** The first `keys` fields of a COPY line (tabs inside values are escaped). */
function keyOf(line: string, keys: number): string {
  let end = -1;
  for (let k = 0; k < keys; k++) {
    end = line.indexOf('\t', end + 1);
    if (end < 0) return line;
  }
  return line.slice(0, end);
}

/** One fold row as a COPY line in the live table's text form; `certain` false if a value's form is not known. */
function encode(
  projection: Projection,
  table: string,
  columns: Plan['columns'],
  row: FoldedRow,
): { line: string; certain: boolean } {
  let line = '';
  let certain = true;
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i]!;
    const value = row[c.name];
    if (value === undefined && !(c.name in row))
      throw new Error(`rebuild of ${projection.name}: a ${table} row of its fold has no ${c.name}`);
    let t: string;
    if (value === null || value === undefined) t = '\\N';
    else {
      const known = c.canonical(value);
      if (known === undefined) {
        certain = false;
        t = cell(value, c.cellKind); // as the shadow path would send it: PostgreSQL casts it
      } else t = copyEscape(known);
    }
    line += (i === 0 ? '' : '\t') + t;
  }
  return { line, certain };
}

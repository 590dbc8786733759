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
 * A fold's rows written straight into the live tables, only where they differ (rebuild-swap.ts). Inside the swap's
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
const LOWER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
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

/** `toISOString`'s millisecond fraction as PostgreSQL prints it (trailing zeros trimmed), by its three digits. */
const FRACTIONS = new Map(
  Array.from({ length: 1000 }, (_, ms) => {
    const digits = String(ms).padStart(3, '0');
    const trimmed = digits.replace(/0+$/, '');
    return [digits, trimmed ? `.${trimmed}` : ''] as const;
  }),
);

function timestamptz(v: unknown): string | undefined {
  const iso = v instanceof Date ? (Number.isNaN(v.getTime()) ? undefined : v.toISOString()) : v;
  if (typeof iso !== 'string') return undefined;
  // The usual form, `toISOString`'s (every event time): cut and pasted, no pattern matched.
  if (iso.length === 24 && iso.charCodeAt(23) === 0x5a /* Z */ && iso.charCodeAt(10) === 0x54 /* T */) {
    const fraction = iso.charCodeAt(19) === 0x2e /* . */ ? FRACTIONS.get(iso.slice(20, 23)) : undefined;
    if (fraction !== undefined && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(iso))
      return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction}+00`;
  }
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
  const order = keyOrderOf(keys);
  if (!order) return undefined;
  let out = '{';
  for (let i = 0; i < order.keys.length; i++) {
    const t = jsonb(o[order.keys[i]!]);
    if (t === undefined) return undefined;
    out += (i === 0 ? '' : ', ') + order.prefixes[i]! + t;
  }
  return out + '}';
}

/** An object's keys in jsonb's order, each with its `"key": ` text; null for keys it cannot order here. */
type KeyOrder = { keys: string[]; prefixes: string[] } | null;
/** By the keys as they came (most objects of a model share a few shapes): sorting each object's again cost most. */
const keyOrders = new Map<string, KeyOrder>();
const KEY_ORDERS_KEPT = 10_000;

function keyOrderOf(keys: string[]): KeyOrder {
  const shape = keys.join('\u0000');
  let order = keyOrders.get(shape);
  if (order !== undefined) return order;
  // By byte length then bytes: for printable ASCII keys, by length then code units. Others take the slow path.
  if (keys.some((k) => /[^ -~]/.test(k))) order = null;
  else {
    const sorted = [...keys].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
    order = { keys: sorted, prefixes: sorted.map((k) => `${JSON.stringify(k)}: `) };
  }
  if (keyOrders.size < KEY_ORDERS_KEPT) keyOrders.set(shape, order);
  return order;
}

/** Column types (as format_type names them) whose text form `canonicalFor` reproduces. */
const CANONICAL: Record<string, Canonical> = {
  text,
  'character varying': text,
  uuid: (v) =>
    typeof v !== 'string' ? undefined : LOWER_UUID.test(v) ? v : UUID.test(v) ? v.toLowerCase() : undefined,
  smallint: integer,
  integer,
  bigint: integer,
  boolean: (v) => (v === true ? 't' : v === false ? 'f' : undefined),
  'timestamp with time zone': timestamptz,
  jsonb,
};
/** The encoders whose text may need COPY's escapes: the others print only digits, letters, `-`, `:`, `.`, `+`, ` `. */
const ESCAPED = new Set<Canonical>([text, jsonb]);
export const canonicalFor = (type: string): Canonical | undefined =>
  CANONICAL[type.replace(/^character varying\(\d+\)$/, 'character varying')];

/** Undoes `copyEscape` (for key values read back from COPY TO). */
const UNESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
const unescapeOut = (s: string) => s.replace(/\\(.)/g, (_, c: string) => UNESCAPES[c] ?? c);

type Plan = {
  table: LiveTable;
  /** Written columns, keys first: the order of both the COPY TO select list and the encoded lines. */
  columns: {
    name: string;
    type: string;
    key: boolean;
    canonical: Canonical;
    cellKind: 'json' | 'plain';
    /** Whether its text can hold a character COPY escapes (text and JSON can; uuids, numbers and times cannot). */
    escaped: boolean;
  }[];
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
        escaped: ESCAPED.has(canonicalFor(c.type)!),
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
  /** The live rows read ahead (`readLiveAhead`), if the checkpoint row is still the version they were read with. */
  ahead: LiveSnapshot | null = null,
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
    const i = changes.length;
    const live =
      ahead && sameColumns(ahead.columns[i], plan) ? ahead.tables[i]! : await readLiveRows(connection, plan);
    changes.push(differences(projection, plan, live, rows[plan.table.name] ?? []));
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

/** A table's live rows as COPY TO prints them: by key (the key columns' text), or counted whole when it has none. */
type LiveRows = { byKey: Map<string, string>; counts: Map<string, number>; rows: number };

/**
 * A projection's live rows read ahead of its swap, in one snapshot with its checkpoint row's version (`xmin`):
 * `version` is compared under the swap's lock, and the rows are used only if that row has not changed since. Every
 * write to a projection's tables moves its checkpoint in the same transaction (the projector's batches, rebuilds),
 * so an unchanged checkpoint row means unchanged tables.
 */
export type LiveSnapshot = { version: string; columns: string[][]; tables: LiveRows[] };

const sameColumns = (columns: string[] | undefined, plan: Plan) =>
  columns !== undefined &&
  columns.length === plan.columns.length &&
  columns.every((name, i) => plan.columns[i]!.name === name);

/**
 * Reads `projection`'s live rows ahead of its swap (a rebuild's fold thread does, while the log is still being read),
 * on a connection of its own. Null when it takes the shadow path or has no checkpoint row yet.
 */
export async function readLiveAhead(knex: Knex, projection: Projection): Promise<LiveSnapshot | null> {
  const connection = (await knex.client.acquireRawConnection()) as pg.Client;
  try {
    const plans = await planInPlace(knex, connection, projection);
    if (!plans) return null;
    await connection.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      await connection.query(`SET LOCAL TimeZone = 'UTC'`);
      await connection.query(`SET LOCAL DateStyle = 'ISO, YMD'`);
      const { rows } = await connection.query<{ version: string }>(
        `SELECT xmin::text AS version FROM projection_checkpoints WHERE name = $1`,
        [projection.name],
      );
      if (!rows[0]) return null;
      const tables: LiveRows[] = [];
      for (const plan of plans) tables.push(await readLiveRows(connection, plan));
      return { version: rows[0].version, columns: plans.map((p) => p.columns.map((c) => c.name)), tables };
    } finally {
      await connection.query('COMMIT');
    }
  } finally {
    await knex.client.destroyRawConnection(connection).catch(() => {});
  }
}

/** The live table read with COPY TO, in the plan's column order. */
async function readLiveRows(connection: pg.Client, plan: Plan): Promise<LiveRows> {
  const { columns, keys, table } = plan;
  const live: LiveRows = { byKey: new Map(), counts: new Map(), rows: 0 };
  const select = `COPY (SELECT ${columns.map((c) => ident(c.name)).join(', ')} FROM ${table.qualified}) TO STDOUT`;
  const decoder = new StringDecoder('utf8');
  let rest = '';
  const take = (line: string) => {
    live.rows++;
    if (keys === 0) live.counts.set(line, (live.counts.get(line) ?? 0) + 1);
    else live.byKey.set(keyOf(line, keys), line);
  };
  for await (const chunk of connection.query(copyTo(select)) as AsyncIterable<Buffer>) {
    const lines = (rest + decoder.write(chunk)).split('\n');
    rest = lines.pop()!;
    for (const line of lines) take(line);
  }
  rest += decoder.end();
  if (rest !== '') take(rest);
  return live;
}

/**
 * The live rows against the fold's rows: the keys of live rows to remove (changed or gone) and the lines to add
 * (changed or new). A table without a key is replaced whole when the two differ as multisets. Consumes `live`.
 */
function differences(
  projection: Projection,
  plan: Plan,
  { byKey: live, counts, rows: liveRows }: LiveRows,
  rows: Iterable<FoldedRow>,
): { removed: string[]; removeAll: boolean; added: string[] } {
  const { columns, keys, table } = plan;
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
      } else t = c.escaped ? copyEscape(known) : known;
    }
    line += (i === 0 ? '' : '\t') + t;
  }
  return { line, certain };
}

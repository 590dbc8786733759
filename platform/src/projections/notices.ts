import type { Knex } from 'knex';
import { listenTo } from '../db/listen';
import { logger } from '../logger';
import { runInOneStatement, unionAll, type Statement } from './live-batch';

/**
 * Change notices: after a projector commits, the realtime gateway learns what changed (see 'Projections' and
 * 'Realtime' in docs/architecture.md). A projection pushes small notices (a kind and ids, never whole rows) while it
 * applies an event; they are sent with `pg_notify` inside the projector's transaction, so PostgreSQL delivers them
 * exactly when the read model they describe is committed, and never for a batch that rolled back. Rebuilds replay
 * history and send none.
 *
 * A NOTIFY reaches only the connections listening when it is committed, so each one is also kept a few minutes in
 * `change_notices` (same transaction) under an id the NOTIFY carries (`{id}:{json}`): a listener that lost its
 * connection (a database restart, a failover) reads what it missed when it is back, and skips what it had.
 */
export const CHANGES_CHANNEL = 'pawhaven_changes';

export type ChangeNotice = { kind: string } & { [key: string]: string | number | boolean | null };

export type Notices = { push(notice: ChangeNotice): void };

/** For replays (rebuilds, tests): history is not news. */
export const NO_NOTICES: Notices = { push() {} };

/** PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more (the id in front takes up to 20). */
const MAX_PAYLOAD = 7500;

/** How long sent notices are kept for listeners catching up. */
const KEPT_MINUTES = 10;
/**
 * How far before its loss a reconnected listener reads again: a notice is stamped when its transaction began, which
 * may be that long before it committed. What it heard already is skipped by id.
 */
const CATCH_UP_MARGIN_SECONDS = 60;

/**
 * A batch's notices collected; `sending` gives them as parts of the projector's last statement of the batch: steps
 * that keep each chunk in `change_notices` and the NOTIFYs that send it with its id (delivered at COMMIT).
 */
export function collectNotices(): Notices & { sending(): { steps: Statement[]; notifies: Statement[] } } {
  const pending: ChangeNotice[] = [];
  return {
    push: (notice) => void pending.push(notice),
    sending() {
      const chunks: string[][] = [];
      let chunk: string[] = [];
      let size = 2;
      for (const notice of pending) {
        const json = JSON.stringify(notice);
        if (json.length + 1 > MAX_PAYLOAD) {
          logger.warn({ kind: notice.kind, bytes: json.length }, 'change notice too large; dropped');
          continue;
        }
        if (size + json.length + 1 > MAX_PAYLOAD && chunk.length > 0) {
          chunks.push(chunk);
          chunk = [];
          size = 2;
        }
        chunk.push(json);
        size += json.length + 1;
      }
      if (chunk.length > 0) chunks.push(chunk);
      pending.length = 0;
      return {
        steps: chunks.map((c, i) => ({
          name: `notice${i}`,
          sql: 'INSERT INTO change_notices (payload) VALUES (?) RETURNING id, payload',
          bindings: [`[${c.join(',')}]`],
        })),
        notifies: chunks.map((_, i) => ({
          sql: `SELECT pg_notify(?, notice${i}.id || ':' || notice${i}.payload)::text FROM notice${i}`,
          bindings: [CHANGES_CHANNEL],
        })),
      };
    },
  };
}

/** Ids of notices handled lately, so a catch-up does not hand one over twice. */
class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly max = 20_000) {}
  /** False when `id` was added already. */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.max) this.ids.delete(this.ids.values().next().value as string);
    return true;
  }
}

/**
 * Follows the change notices of every projector (any process) on its own connection, reconnecting after a loss.
 * `onNotices` gets each committed batch's notices in commit order; after a reconnection, first the batches sent
 * while it was away (in the order they were sent), then what comes.
 */
export async function listenForChanges(
  connectionString: string,
  onNotices: (notices: ChangeNotice[]) => void,
): Promise<{ stop(): Promise<void> }> {
  const handled = new RecentIds();
  let lostAt: number | undefined;
  const handle = (id: string, json: string) => {
    if (handled.add(id)) onNotices(JSON.parse(json) as ChangeNotice[]);
  };
  return listenTo(connectionString, [CHANGES_CHANNEL], {
    onNotification(msg) {
      const at = msg.payload?.indexOf(':') ?? -1;
      if (at > 0) handle(msg.payload!.slice(0, at), msg.payload!.slice(at + 1));
    },
    onLost: () => (lostAt ??= Date.now()),
    async onListening(reconnected, client) {
      if (!reconnected || lostAt === undefined) return;
      // Seconds by this process's clock, compared with the database's own: the two clocks need not agree.
      const seconds = (Date.now() - lostAt) / 1000 + CATCH_UP_MARGIN_SECONDS;
      const { rows } = await client.query<{ id: string; payload: string }>(
        `SELECT id::text, payload FROM change_notices WHERE sent_at > now() - make_interval(secs => $1) ORDER BY id`,
        [seconds],
      );
      for (const r of rows) handle(r.id, r.payload);
      lostAt = undefined;
    },
  });
}

/** Sends notices now, outside any projector batch (e.g. a rebuild's progress): delivered to every listener at once. */
export async function publishNotices(knex: Knex, notices: ChangeNotice[]): Promise<void> {
  const collected = collectNotices();
  for (const notice of notices) collected.push(notice);
  const { steps, notifies } = collected.sending();
  if (steps.length > 0) await runInOneStatement(knex, steps, unionAll(notifies));
}

/** Drops the notices no listener will read again; answers how many (housekeeping). */
export async function deleteOldChangeNotices(knex: Knex): Promise<number> {
  return knex('change_notices')
    .where('sent_at', '<', knex.raw(`now() - make_interval(mins => ?)`, [KEPT_MINUTES]))
    .delete();
}

import type { Knex } from 'knex';
import { listenTo } from '../db/listen';
import { logger } from '../logger';

/**
 * Change notices: after a projector commits, the realtime gateway learns what changed (ARCHITECTURE §1). A
 * projection pushes small notices (a kind and ids, never whole rows) while it applies an event; they are sent with
 * `pg_notify` inside the projector's transaction, so PostgreSQL delivers them exactly when the read model they
 * describe is committed, and never for a batch that rolled back. Rebuilds replay history and send none.
 */
export const CHANGES_CHANNEL = 'pawhaven_changes';

export type ChangeNotice = { kind: string } & { [key: string]: string | number | boolean | null };

export type Notices = { push(notice: ChangeNotice): void };

/** For replays (rebuilds, tests): history is not news. */
export const NO_NOTICES: Notices = { push() {} };

/** PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more. */
const MAX_PAYLOAD = 7500;

/** Collects a batch's notices; `send` queues them in the transaction (delivered at COMMIT). */
export function collectNotices(): Notices & { send(tx: Knex.Transaction): Promise<void> } {
  const pending: ChangeNotice[] = [];
  return {
    push: (notice) => void pending.push(notice),
    async send(tx) {
      let chunk: string[] = [];
      let size = 2;
      const flush = async () => {
        if (chunk.length === 0) return;
        await tx.raw('SELECT pg_notify(?, ?)', [CHANGES_CHANNEL, `[${chunk.join(',')}]`]);
        chunk = [];
        size = 2;
      };
      for (const notice of pending) {
        const json = JSON.stringify(notice);
        if (json.length + 1 > MAX_PAYLOAD) {
          logger.warn({ kind: notice.kind, bytes: json.length }, 'change notice too large; dropped');
          continue;
        }
        if (size + json.length + 1 > MAX_PAYLOAD) await flush();
        chunk.push(json);
        size += json.length + 1;
      }
      await flush();
      pending.length = 0;
    },
  };
}

/**
 * Follows the change notices of every projector (any process) on its own connection, reconnecting after a loss.
 * `onNotices` gets each committed batch's notices in commit order. Notices sent while the connection was down (a
 * database restart: a second or two) are not heard; `onReconnected` is told when listening resumes.
 */
export async function listenForChanges(
  connectionString: string,
  onNotices: (notices: ChangeNotice[]) => void,
  onReconnected?: () => void,
): Promise<{ stop(): Promise<void> }> {
  return listenTo(connectionString, [CHANGES_CHANNEL], {
    onNotification(msg) {
      if (msg.payload) onNotices(JSON.parse(msg.payload) as ChangeNotice[]);
    },
    onListening: (reconnected) => {
      if (reconnected) onReconnected?.();
    },
  });
}

/** Sends notices now, outside any projector batch (e.g. a rebuild's progress): delivered to every listener at once. */
export async function publishNotices(knex: Knex, notices: ChangeNotice[]): Promise<void> {
  const json = JSON.stringify(notices);
  if (json.length > MAX_PAYLOAD) {
    logger.warn({ bytes: json.length }, 'change notice too large; dropped');
    return;
  }
  await knex.raw('SELECT pg_notify(?, ?)', [CHANGES_CHANNEL, json]);
}

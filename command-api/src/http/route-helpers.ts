import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { notFound, unauthorized } from '@pawhaven/platform';

/** Signed-in only: a visitor gets the flow's own wording (the spec's), a bad or ended token the usual one. */
export const signedIn =
  (message: string): RequestHandler =>
  (req, _res, next) =>
    req.auth ? next() : next(unauthorized(req.headers.authorization ? 'Authentication required' : message));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs: anything else names nothing (404 with `message`) and never reaches a uuid column. */
export const uuidParam = (id: unknown, message: string): string => {
  if (typeof id !== 'string' || !UUID.test(id)) throw notFound(message);
  return id.toLowerCase();
};

/**
 * The stream that recorded a child entity (a request of an ad, a comment of a post), whose id is global. The read
 * model knows every one up to its projection's checkpoint (read first); one recorded a moment ago may lie past it,
 * so the unprojected tail of the log is searched too — otherwise acting on it right after creating it would be a 404.
 * Answers the parent id from the read model, or the stream id from the log, or null.
 */
export async function findRecordingStream(
  knex: Knex,
  where: {
    projection: string;
    table: string;
    parentColumn: string;
    id: string;
    eventType: string;
    /** The event data field holding the child's id. */
    idField: string;
  },
): Promise<{ parentId: string } | { streamId: string } | null> {
  const checkpoint = await knex('projection_checkpoints')
    .where({ name: where.projection })
    .first<{ transaction_id: string; position: string } | undefined>('transaction_id', 'position');
  const row = await knex(where.table)
    .where({ id: where.id })
    .first<Record<string, string> | undefined>(where.parentColumn);
  if (row) return { parentId: row[where.parentColumn]! };
  const tail = await knex.raw<{ rows: { stream_id: string }[] }>(
    `SELECT stream_id FROM events WHERE (transaction_id, position) > (?::text::xid8, ?::bigint)
       AND type = ? AND data->>? = ? LIMIT 1`,
    [
      checkpoint?.transaction_id ?? '0',
      checkpoint?.position ?? '0',
      where.eventType,
      where.idField,
      where.id,
    ],
  );
  const streamId = tail.rows[0]?.stream_id;
  return streamId ? { streamId } : null;
}

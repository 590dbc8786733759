import type { Knex } from 'knex';
import { adoptionStream, postStream } from '@pawhaven/contracts';
import type { Database } from '@pawhaven/platform';

/**
 * What the command side asks of the read models, and of the log beyond a stream, in one named place.
 *
 * A decision reads its aggregate's own stream; a few routes need more before they can decide: which stream recorded
 * a child whose id is global (an adoption request, a comment), a post's likers for the answer of a like, what a
 * user's notification list shows (a notification exists only as a projected row). They ask this port, never a
 * table: the read models' tables and functions are named only in its PostgreSQL implementation below, so renaming
 * or reshaping one is a change here (command-api/src/ports/read-models.unit.test.ts refuses a read-model table
 * named anywhere else in command-api/src).
 */
export interface ReadModels {
  /**
   * The stream that recorded a child (`AdoptionRequested` in its ad's stream, `CommentAdded` in its post's), or
   * null. The read model knows every child up to its projection's checkpoint; one recorded a moment ago may lie
   * past it, so the log's unprojected tail is searched too (acting on it right after creating it is no 404). With
   * `wholeLog`, a child the read model no longer has (deleted, then retried by an administrator) is looked for in
   * the whole log: a scan, paid only by an id the read model does not know.
   */
  recordingStream(child: Child, id: string, options?: { wholeLog?: boolean }): Promise<string | null>;
  /** The users who like the post, as the read model has them: oldest like first (it may lag behind the log). */
  postLikers(postId: string): Promise<string[]>;
  /** The notification as the user's list shows it (the only place its id can have come from), or null. */
  notificationSeen(userId: string, notificationId: string): Promise<{ read: boolean } | null>;
  /** How many notifications the user's list shows, and how many of them are unread. */
  notificationCounts(userId: string): Promise<{ total: number; unread: number }>;
  /** The pictures of the directory's entries and the team (ngos, clinics, team members). */
  directoryImages(): Promise<string[]>;
}

export type Child = 'adoption-request' | 'post-comment';

/** The projections that own the child tables (their checkpoint bounds what the tables know). */
export const ADOPTION_REQUESTS_PROJECTION = 'adoption-ads';
export const COMMENTS_PROJECTION = 'community-posts';

const CHILDREN: Record<
  Child,
  {
    projection: string;
    table: string;
    parentColumn: string;
    streamOf: (parentId: string) => string;
    eventType: string;
    /** The event data field holding the child's id. */
    idField: string;
  }
> = {
  'adoption-request': {
    projection: ADOPTION_REQUESTS_PROJECTION,
    table: 'adoption_requests',
    parentColumn: 'ad_id',
    streamOf: adoptionStream,
    eventType: 'AdoptionRequested',
    idField: 'requestId',
  },
  'post-comment': {
    projection: COMMENTS_PROJECTION,
    table: 'post_comments',
    parentColumn: 'post_id',
    streamOf: postStream,
    eventType: 'CommentAdded',
    idField: 'commentId',
  },
};

/** The read models as PostgreSQL holds them (the projections' tables, in the database the event store uses). */
export function postgresReadModels(db: Pick<Database, 'knex'>): ReadModels {
  const knex: Knex = db.knex;
  return {
    async recordingStream(child, id, options = {}) {
      const c = CHILDREN[child];
      // The checkpoint first: a child projected after it is read is then in the tail searched below.
      const checkpoint = await knex('projection_checkpoints')
        .where({ name: c.projection })
        .first<{ transaction_id: string; position: string } | undefined>('transaction_id', 'position');
      const row = await knex(c.table).where({ id }).first<Record<string, string> | undefined>(c.parentColumn);
      if (row) return c.streamOf(row[c.parentColumn]!);
      const tail = await knex.raw<{ rows: { stream_id: string }[] }>(
        `SELECT stream_id FROM events WHERE (transaction_id, position) > (?::text::xid8, ?::bigint)
           AND type = ? AND data->>? = ? LIMIT 1`,
        [checkpoint?.transaction_id ?? '0', checkpoint?.position ?? '0', c.eventType, c.idField, id],
      );
      if (tail.rows[0]) return tail.rows[0].stream_id;
      if (!options.wholeLog) return null;
      const { rows } = await knex.raw<{ rows: { stream_id: string }[] }>(
        `SELECT stream_id FROM events WHERE type = ? AND data->>? = ? LIMIT 1`,
        [c.eventType, c.idField, id],
      );
      return rows[0]?.stream_id ?? null;
    },

    async postLikers(postId) {
      const rows = await knex('post_likes')
        .where({ post_id: postId })
        .orderBy([{ column: 'liked_at' }, { column: 'user_id' }])
        .select<{ user_id: string }[]>('user_id');
      return rows.map((r) => r.user_id);
    },

    async notificationSeen(userId, notificationId) {
      const { rows } = await knex.raw<{ rows: { read: boolean }[] }>(
        'SELECT read FROM user_notifications(?) WHERE id = ?',
        [userId, notificationId],
      );
      return rows[0] ?? null;
    },

    async notificationCounts(userId) {
      const { rows } = await knex.raw<{ rows: { total: number; unread: number }[] }>(
        `SELECT count(*)::int AS total, (count(*) FILTER (WHERE NOT read))::int AS unread
           FROM user_notifications(?)`,
        [userId],
      );
      return rows[0]!;
    },

    async directoryImages() {
      const { rows } = await knex.raw<{ rows: { image: string }[] }>(
        `SELECT image FROM ngos UNION SELECT image FROM clinics UNION SELECT image FROM team_members`,
      );
      return rows.map((r) => r.image);
    },
  };
}

import type { Request, RequestHandler, Response } from 'express';
import type { Pool } from 'pg';

/**
 * A deleted person is gone from every read at once, whatever the projections' lag.
 *
 * Each read model forgets a person when its projection applies `UserDeleted`; until then (milliseconds, or minutes
 * while an open transaction holds every projection back) the rows are still there. So every read of the query
 * side first asks the log which users were deleted past the checkpoint of the slowest projection that forgets
 * people (one indexed statement, ~0.2 ms, nearly always answering none) and, when there are some, which of their
 * content the read models still hold: their posts, ads, conversations and adoption requests. Then, in this one
 * place rather than in every query:
 *
 * - a request naming one of those ids (in its path, query or body) is served as if it named an id nobody has: the
 *   route answers its own 404, or an empty list, exactly as after the projections caught up;
 * - its answer drops every object that is one of them, belongs to one of those people or names one of them
 *   (a post, an ad, a comment, a request, a conversation, a notification they caused, a user in a list), and their
 *   ids from lists of ids (likes). A comment of theirs that a remaining reply answers keeps its place as a deleted
 *   comment, as the read model keeps it. A reference to their content from someone else's (the ad a conversation
 *   is about) becomes null.
 *
 * Counts kept by the read models (likes, comments, requests, totals) still include them until the projections
 * catch up. The admin dashboard is not filtered: its Events browser and audit timeline keep a deleted person's
 * facts by design, and its lists follow the read models.
 */

export type PendingDeletions = {
  /** Users whose deletion the slowest projection that forgets people has not applied yet. */
  users: ReadonlySet<string>;
  /** Those users and the ids of their content the read models still hold. */
  hidden: ReadonlySet<string>;
};

const NONE: PendingDeletions = { users: new Set(), hidden: new Set() };

const PENDING_SQL = `
  WITH slowest AS (
    SELECT COALESCE(c.transaction_id, '0'::xid8) AS transaction_id, COALESCE(c.position, 0) AS position
    FROM unnest($1::text[]) AS n(name) LEFT JOIN projection_checkpoints c ON c.name = n.name
    ORDER BY 1, 2 LIMIT 1)
  SELECT DISTINCT e.data->>'userId' AS user_id FROM events e, slowest s
  WHERE e.type = 'UserDeleted' AND (e.transaction_id, e.position) > (s.transaction_id, s.position)`;

/** What the read models hold of these people, by the columns that name their owner. */
const CONTENT_SQL = `
  SELECT id::text FROM posts WHERE author_id = ANY($1::text[])
  UNION ALL SELECT id FROM adoption_ads WHERE owner_id = ANY($1::text[])
  UNION ALL SELECT id FROM adoption_requests WHERE requester_id = ANY($1::text[])
  UNION ALL SELECT conversation_id FROM conversation_members WHERE user_id = ANY($1::text[])`;

/** The deletions the read models have not applied yet; `projections` are those that forget people. */
async function pendingDeletions(pool: Pool, projections: readonly string[]): Promise<PendingDeletions> {
  const { rows } = await pool.query<{ user_id: string | null }>({
    name: 'pending-user-deletions',
    text: PENDING_SQL,
    values: [projections],
  });
  const users = rows.map((r) => r.user_id).filter((id): id is string => !!id);
  if (users.length === 0) return NONE;
  const content = await pool.query<{ id: string }>({
    name: 'pending-deleted-content',
    text: CONTENT_SQL,
    values: [users],
  });
  return {
    users: new Set(users),
    hidden: new Set([...users, ...content.rows.map((r) => r.id.toLowerCase())]),
  };
}

/** An id nothing has: a request naming hidden content is served as if it named this. */
const NOBODY = '00000000-0000-0000-0000-000000000000';

const HIDDEN = Symbol('hidden');
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isHidden = (value: unknown, p: PendingDeletions) =>
  typeof value === 'string' && p.hidden.has(value.toLowerCase());
const ownId = (o: { [key: string]: Json }) =>
  typeof o._id === 'string' ? o._id : typeof o.id === 'string' ? o.id : null;

/** `value` as a reader may see it, or HIDDEN when all of it must go. */
export function withoutDeletedUsers(value: Json, p: PendingDeletions): Json | typeof HIDDEN {
  if (Array.isArray(value)) {
    const items = value
      .filter((item) => !isHidden(item, p))
      .map((item) => ({
        item,
        shown: withoutDeletedUsers(item, p),
      }));
    // Replies that remain keep the comment they answer in its place, as a deleted comment.
    const answered = new Set(
      items.flatMap(({ shown }) =>
        shown !== HIDDEN && shown && typeof shown === 'object' && !Array.isArray(shown)
          ? [shown.parentCommentId]
          : [],
      ),
    );
    return items.flatMap(({ item, shown }): Json[] => {
      if (shown !== HIDDEN) return [shown as Json];
      const o = item as { [key: string]: Json };
      if (typeof o.deleted === 'boolean' && answered.has(ownId(o)))
        return [{ ...o, userId: null, content: '', deleted: true }];
      return [];
    });
  }
  if (value === null || typeof value !== 'object') return value;
  const shown: { [key: string]: Json } = {};
  for (const [key, field] of Object.entries(value)) {
    // It is theirs or names them (its own id, an owner, an actor, the ad or post it is about).
    if (isHidden(field, p)) return HIDDEN;
    const inner = withoutDeletedUsers(field, p);
    if (inner === HIDDEN) {
      const nested = field as { [key: string]: Json };
      const id = ownId(nested);
      // A reference to someone else's content that is gone; anything else (its author, its details) takes it along.
      if (id !== null && !p.users.has(id.toLowerCase())) shown[key] = null;
      else return HIDDEN;
    } else shown[key] = inner;
  }
  return shown;
}

/** The request's path segments, query values and JSON body strings that name hidden ids, replaced by NOBODY. */
function renameHidden(req: Request, p: PendingDeletions): void {
  const [path, query] = req.url.split('?', 2) as [string, string | undefined];
  const segments = path.split('/').map((s) => {
    let decoded = s;
    try {
      decoded = decodeURIComponent(s);
    } catch {
      // left as it is: the route refuses it
    }
    return isHidden(decoded, p) ? NOBODY : s;
  });
  let search = '';
  if (query !== undefined) {
    const params = new URLSearchParams(query);
    for (const [k, v] of [...params]) if (isHidden(v, p)) params.set(k, NOBODY);
    search = `?${params.toString()}`;
  }
  req.url = segments.join('/') + search;
  const rename = (v: unknown): unknown =>
    isHidden(v, p)
      ? NOBODY
      : Array.isArray(v)
        ? v.map(rename)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rename(x)]))
          : v;
  if (req.body && typeof req.body === 'object') req.body = rename(req.body);
}

const NOT_FOUND = { message: 'Not found', error: 'Not found' };

/** Every JSON answer of a successful read passes through `withoutDeletedUsers`. */
function filterAnswers(res: Response, p: PendingDeletions): void {
  const send = res.send.bind(res);
  res.send = (body?: unknown) => {
    const type = String(res.getHeader('Content-Type') ?? '');
    if (typeof body !== 'string' || !type.includes('json') || res.statusCode >= 300) return send(body);
    const shown = withoutDeletedUsers(JSON.parse(body) as Json, p);
    if (shown === HIDDEN) {
      res.status(404);
      return send(JSON.stringify(NOT_FOUND));
    }
    return send(JSON.stringify(shown));
  };
}

/**
 * The query side's read path: before a route reads anything, the deletions its read models have not applied yet
 * (read first, so a deletion the projections apply while the route runs is either still listed or already gone
 * from the rows); then the request and its answer as above. `projections`: the read models' projections.
 */
export function hideDeletedUsers(
  pool: Pool,
  projections: readonly { name: string; handles: readonly string[] }[],
): RequestHandler {
  const forgetting = projections.filter((x) => x.handles.includes('UserDeleted')).map((x) => x.name);
  return async (req, res, next) => {
    if (req.path.startsWith('/api/admin/') || req.path === '/api/admin') return next();
    try {
      const pending = await pendingDeletions(pool, forgetting);
      if (pending.users.size > 0) {
        renameHidden(req, pending);
        filterAnswers(res, pending);
      }
      next();
    } catch (err) {
      next(err);
    }
  };
}

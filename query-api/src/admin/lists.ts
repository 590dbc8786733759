import type { Knex } from 'knex';
import { isUuid, uuidIndex } from '@pawhaven/contracts';

type Binding = Knex.Value;
import type {
  AdminAdoptionRequestRow,
  AdminAdoptionRow,
  AdminCommentRow,
  AdminEventRow,
  AdminPostRow,
  AdminStreamRow,
  AdminUserRow,
} from '@pawhaven/contracts';
import type { ListParams } from './simple-rest';

/**
 * The admin lists, one definition each: the base table (counted alone), the joins that populate a row, the filters
 * as SQL on the base table, and the whitelisted sort columns. Orders match the read models' indexes (see the
 * migrations), so a page of a 100,000-row table costs one index scan plus the joins of its rows.
 */
type Clause = { sql: string; bindings: Binding[] };
type Sort = { field: string; order: 'ASC' | 'DESC' };

export type ListDefinition<F, Row> = {
  /** `table alias`: what is counted and filtered. */
  base: string;
  joins: string;
  select: string;
  /** The base table's own WHERE, always applied (e.g. no deleted rows). */
  always?: (filter: F) => Clause[];
  where: (filter: F) => Clause[];
  /** Sort field → SQL expression; a tie-breaker keeps pages stable. */
  orderBy: (sort: Sort) => string;
  toRow: (r: Record<string, unknown>) => Row;
  /**
   * Lists as long as the log (streams, events) count at most this many rows exactly; past it the total is the
   * planner's estimate (counting a million events took longer than reading the page).
   */
  countUpTo?: number;
};

const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : d == null ? null : String(d));
const isoNotNull = (d: unknown) => iso(d) ?? '';
const num = (n: unknown) => Number(n ?? 0);
/** `%x%` with LIKE's own characters escaped. */
const likeSubstring = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** uuid columns compared with text from the request: ids that cannot be uuids match nothing (not a 400). */
const uuidIn = (column: string, values: string[]): Clause => {
  const valid = values.filter(isUuid);
  return valid.length === 0
    ? { sql: 'false', bindings: [] }
    : { sql: `${column} = ANY(?::uuid[])`, bindings: [valid] };
};
const clause = (sql: string, ...bindings: Binding[]): Clause => ({ sql, bindings });
const dir = (sort: Sort) => (sort.order === 'ASC' ? 'ASC' : 'DESC');
const flip = (sort: Sort) => (sort.order === 'ASC' ? 'DESC' : 'ASC');
/** `col dir, id idDir`: the id keeps pages stable when the column ties (not repeated when it is the id). */
const tieBreak = (col: string, colDir: string, id: string, idDir: string) =>
  col === id ? `${col} ${colDir}` : `${col} ${colDir}, ${id} ${idDir}`;

type UserFilter = { id?: string[]; q?: string; isVeterinarian?: boolean; isAdmin?: boolean };
export const usersList: ListDefinition<UserFilter, AdminUserRow> = {
  base: 'users u',
  joins: `LEFT JOIN user_community_stats cs ON cs.user_id = u.id
          LEFT JOIN user_adoption_stats ads ON ads.user_id = u.id`,
  select: `u.*, COALESCE(cs.posts, 0) AS posts, COALESCE(cs.comments, 0) AS comments,
           COALESCE(ads.ads, 0) AS adoptions, COALESCE(ads.requests, 0) AS requests`,
  // Manage Users shows veterinarians and regular users; admins only when asked for.
  always: (f) => (f.isAdmin === undefined && !f.id ? [clause('NOT u.is_admin')] : []),
  where: (f) => [
    ...(f.id ? [clause('u.id = ANY(?)', f.id)] : []),
    ...(f.isAdmin !== undefined ? [clause('u.is_admin = ?', f.isAdmin)] : []),
    ...(f.isVeterinarian !== undefined ? [clause('u.is_veterinarian = ?', f.isVeterinarian)] : []),
    // The first test is what users_search_trgm indexes; the second keeps the meaning exact (no match across both).
    ...(f.q
      ? [
          clause(
            `(lower(u.username) || ' ' || lower(u.email)) LIKE ? AND (lower(u.username) LIKE ? OR lower(u.email) LIKE ?)`,
            likeSubstring(f.q.toLowerCase()),
            likeSubstring(f.q.toLowerCase()),
            likeSubstring(f.q.toLowerCase()),
          ),
        ]
      : []),
  ],
  orderBy: (s) => {
    const col = {
      id: 'u.id',
      username: 'lower(u.username)',
      email: 'lower(u.email)',
      createdAt: 'u.joined_date',
      joinedDate: 'u.joined_date',
      // Not index-served: a sort by a count counts every user first (~0.3 s at 100,000 users).
      posts: 'COALESCE(cs.posts, 0)',
      comments: 'COALESCE(cs.comments, 0)',
      adoptions: 'COALESCE(ads.ads, 0)',
      requests: 'COALESCE(ads.requests, 0)',
    }[s.field]!;
    return tieBreak(col, dir(s), 'u.id', dir(s));
  },
  toRow: (r) => ({
    id: String(r.id),
    _id: String(r.id),
    username: String(r.username),
    email: String(r.email),
    isVeterinarian: Boolean(r.is_veterinarian),
    isAdmin: Boolean(r.is_admin),
    verified: Boolean(r.verified),
    city: String(r.city ?? ''),
    about: String(r.about ?? ''),
    profileImage: (r.profile_image as string | null) ?? null,
    status: 'offline',
    lastActive: iso(r.last_active),
    joinedDate: isoNotNull(r.joined_date),
    createdAt: isoNotNull(r.joined_date),
    posts: num(r.posts),
    comments: num(r.comments),
    adoptions: num(r.adoptions),
    requests: num(r.requests),
  }),
};

type AdoptionFilter = { id?: string[]; ownerId?: string; userId?: string; status?: string; q?: string };
export const adoptionsList: ListDefinition<AdoptionFilter, AdminAdoptionRow> = {
  base: 'adoption_ads a',
  joins: 'LEFT JOIN users u ON u.id = a.owner_id',
  select: 'a.*, u.username AS owner_username, u.email AS owner_email',
  // Deleted ads stay for the audit; they are listed only when asked for (status 'deleted') or by id. Any other
  // status implies it too, said so the per-column indexes (partial: not deleted) serve a sorted, filtered page.
  always: (f) => (f.status !== 'deleted' && !f.id ? [clause('a.deleted_at IS NULL')] : []),
  where: (f) => [
    ...(f.id ? [clause('a.id = ANY(?)', f.id)] : []),
    ...(f.ownerId ? [clause('a.owner_id = ?', f.ownerId)] : []),
    ...(f.userId ? [clause('a.owner_id = ?', f.userId)] : []),
    ...(f.status ? [clause('a.status = ?', f.status)] : []),
    ...(f.q ? [clause('a.name ILIKE ?', likeSubstring(f.q))] : []),
  ],
  orderBy: (s) => {
    // adoption_ads_listing is (created_at DESC, id) and each column's index (col, created_at DESC, id): ties go
    // newest first for an ascending sort, and the whole order reverses for a descending one (a backward scan).
    if (s.field === 'id') return `a.id ${dir(s)}`;
    if (s.field === 'createdAt') return `a.created_at ${dir(s)}, a.id ${flip(s)}`;
    const col = { name: 'lower(a.name)', petType: 'a.pet_type', age: 'a.age', status: 'a.status' }[s.field]!;
    return `${col} ${dir(s)}, a.created_at ${flip(s)}, a.id ${dir(s)}`;
  },
  toRow: (r) => ({
    id: String(r.id),
    _id: String(r.id),
    name: String(r.name),
    petType: String(r.pet_type),
    age: String(r.age),
    ageUnit: String(r.age_unit),
    breed: String(r.breed),
    description: String(r.description),
    location: String(r.location),
    status: r.status as AdminAdoptionRow['status'],
    imageUrl: String(r.image_url),
    userId:
      r.owner_username != null
        ? { _id: String(r.owner_id), username: String(r.owner_username), email: String(r.owner_email) }
        : null,
    ownerId: String(r.owner_id),
    requestCount: num(r.request_count),
    createdAt: isoNotNull(r.created_at),
    updatedAt: isoNotNull(r.updated_at),
  }),
};

type RequestFilter = { id?: string[]; requesterId?: string; userId?: string; adId?: string; status?: string };
export const adoptionRequestsList: ListDefinition<RequestFilter, AdminAdoptionRequestRow> = {
  base: 'adoption_requests r',
  joins: `LEFT JOIN users u ON u.id = r.requester_id
          LEFT JOIN adoption_ads a ON a.id = r.ad_id`,
  select: `r.*, u.username AS requester_username, u.email AS requester_email,
           a.name AS ad_name, a.pet_type AS ad_pet_type`,
  where: (f) => [
    ...(f.id ? [clause('r.id = ANY(?)', f.id)] : []),
    ...(f.requesterId ? [clause('r.requester_id = ?', f.requesterId)] : []),
    ...(f.userId ? [clause('r.requester_id = ?', f.userId)] : []),
    ...(f.adId ? [clause('r.ad_id = ?', f.adId)] : []),
    ...(f.status ? [clause('r.status = ?', f.status)] : []),
  ],
  orderBy: (s) => {
    if (s.field === 'id') return `r.id ${dir(s)}`;
    if (s.field === 'createdAt') return `r.requested_at ${dir(s)}, r.id ${dir(s)}`;
    // (col, requested_at DESC, id DESC) indexes: ties newest first ascending, the whole order reversed descending.
    const col = { name: 'lower(r.name)', status: 'r.status' }[s.field]!;
    return `${col} ${dir(s)}, r.requested_at ${flip(s)}, r.id ${flip(s)}`;
  },
  toRow: (r) => ({
    id: String(r.id),
    _id: String(r.id),
    requester:
      r.requester_username != null
        ? {
            _id: String(r.requester_id),
            username: String(r.requester_username),
            email: String(r.requester_email),
          }
        : null,
    requesterId: String(r.requester_id),
    adId:
      r.ad_name != null
        ? { _id: String(r.ad_id), name: String(r.ad_name), petType: String(r.ad_pet_type) }
        : null,
    name: String(r.name),
    email: String(r.email),
    phone: String(r.phone),
    message: String(r.message),
    petHistoryImage: (r.pet_history_image as string | null) ?? null,
    status: r.status as AdminAdoptionRequestRow['status'],
    reason: (r.reason as string | null) ?? null,
    createdAt: isoNotNull(r.requested_at),
    respondedAt: iso(r.responded_at),
  }),
};

type PostFilter = { id?: string[]; userId?: string };
export const postsList: ListDefinition<PostFilter, AdminPostRow> = {
  base: 'posts p',
  joins: 'LEFT JOIN users u ON u.id = p.author_id',
  select: 'p.*, u.username AS author_username, u.email AS author_email, u.is_veterinarian AS author_vet',
  where: (f) => [
    ...(f.id ? [uuidIn('p.id', f.id)] : []),
    ...(f.userId ? [clause('p.author_id = ?', f.userId)] : []),
  ],
  orderBy: (s) => {
    const col = { id: 'p.id', createdAt: 'p.created_at', commentCount: 'p.comment_count' }[s.field]!;
    // posts_comment_count is (comment_count, created_at, id): ties follow the sort's direction.
    if (s.field === 'commentCount')
      return `p.comment_count ${dir(s)}, p.created_at ${dir(s)}, p.id ${dir(s)}`;
    return tieBreak(col, dir(s), 'p.id', dir(s));
  },
  toRow: (r) => ({
    id: String(r.id),
    _id: String(r.id),
    imageUrl: String(r.image_url),
    caption: String(r.caption),
    text: String(r.caption),
    userId:
      r.author_username != null
        ? {
            _id: String(r.author_id),
            username: String(r.author_username),
            email: String(r.author_email),
            isVeterinarian: Boolean(r.author_vet),
          }
        : null,
    likeCount: num(r.like_count),
    commentCount: num(r.comment_count),
    createdAt: isoNotNull(r.created_at),
    updatedAt: isoNotNull(r.updated_at),
  }),
};

type CommentFilter = { id?: string[]; userId?: string; postId?: string };
export const commentsList: ListDefinition<CommentFilter, AdminCommentRow> = {
  base: 'post_comments c',
  joins: `LEFT JOIN users u ON u.id = c.author_id
          LEFT JOIN posts p ON p.id = c.post_id`,
  select: `c.*, u.username AS author_username, u.email AS author_email, u.is_veterinarian AS author_vet,
           p.caption AS post_caption, p.image_url AS post_image_url`,
  // A deleted comment kept only to hold its replies' thread shape is not content.
  always: () => [clause('NOT c.deleted')],
  where: (f) => [
    ...(f.id ? [uuidIn('c.id', f.id)] : []),
    ...(f.userId ? [clause('c.author_id = ?', f.userId)] : []),
    ...(f.postId ? [uuidIn('c.post_id', [f.postId])] : []),
  ],
  orderBy: (s) => {
    const col = { id: 'c.id', createdAt: 'c.created_at' }[s.field]!;
    return tieBreak(col, dir(s), 'c.id', dir(s));
  },
  toRow: (r) => ({
    id: String(r.id),
    _id: String(r.id),
    content: String(r.content),
    userId:
      r.author_username != null
        ? {
            _id: String(r.author_id),
            username: String(r.author_username),
            email: String(r.author_email),
            isVeterinarian: Boolean(r.author_vet),
          }
        : null,
    postId:
      r.post_caption != null
        ? { _id: String(r.post_id), caption: String(r.post_caption), imageUrl: String(r.post_image_url) }
        : null,
    parentCommentId: (r.parent_comment_id as string | null) ?? null,
    createdAt: isoNotNull(r.created_at),
  }),
};

const LOG_COUNT_EXACT_UP_TO = 10_000;

/** Event browser: a stream is its first event (revision 0); its last one comes from the stream's own index. */
type StreamFilter = { id?: string[]; q?: string; type?: string };
export const streamsList: ListDefinition<StreamFilter, AdminStreamRow> = {
  base: 'events s',
  joins: `CROSS JOIN LATERAL (
            SELECT l.stream_revision, l.position, l.type, l.created_at FROM events l
            WHERE l.stream_id = s.stream_id ORDER BY l.stream_revision DESC LIMIT 1) AS last`,
  select: `s.stream_id, s.position AS first_position, s.type AS first_type, s.created_at AS first_at,
           last.stream_revision AS last_revision, last.position AS last_position, last.type AS last_type,
           last.created_at AS last_at`,
  always: () => [clause('s.stream_revision = 0')],
  where: (f) => [
    ...(f.id ? [clause('s.stream_id = ANY(?)', f.id)] : []),
    ...(f.q ? [clause('s.stream_id ILIKE ?', likeSubstring(f.q))] : []),
    ...(f.type
      ? [clause('EXISTS (SELECT 1 FROM events t WHERE t.stream_id = s.stream_id AND t.type = ?)', f.type)]
      : []),
  ],
  orderBy: (s) => (s.field === 'id' ? `s.stream_id ${dir(s)}` : `s.position ${dir(s)}`),
  countUpTo: LOG_COUNT_EXACT_UP_TO,
  toRow: (r) => {
    const id = String(r.stream_id);
    return {
      id,
      streamId: id,
      category: streamCategory(id),
      events: num(r.last_revision) + 1,
      lastRevision: num(r.last_revision),
      firstPosition: String(r.first_position),
      lastPosition: String(r.last_position),
      firstType: String(r.first_type),
      lastType: String(r.last_type),
      createdAt: isoNotNull(r.first_at),
      updatedAt: isoNotNull(r.last_at),
    };
  },
};

/** 'adoption-ad-3f…' → 'adoption-ad': the id up to the aggregate's own id (a uuid or the last segment). */
export function streamCategory(streamId: string): string {
  const uuid = uuidIndex(streamId);
  const head =
    uuid > 0 ? streamId.slice(0, uuid) : streamId.slice(0, Math.max(0, streamId.lastIndexOf('-') + 1));
  return head.replace(/[-:]+$/, '') || streamId;
}

type EventFilter = { id?: string[]; streamId?: string; type?: string };
export const eventsList: ListDefinition<EventFilter, AdminEventRow> = {
  base: 'events e',
  joins: '',
  select: 'e.*, e.transaction_id::text AS transaction_text',
  where: (f) => [
    ...(f.id
      ? [
          clause(
            'e.position = ANY(?::bigint[])',
            f.id.filter((id) => /^\d{1,18}$/.test(id)),
          ),
        ]
      : []),
    ...(f.streamId ? [clause('e.stream_id = ?', f.streamId)] : []),
    ...(f.type ? [clause('e.type = ?', f.type)] : []),
  ],
  orderBy: (s) => `e.position ${dir(s)}`,
  countUpTo: LOG_COUNT_EXACT_UP_TO,
  toRow: (r) => ({
    id: String(r.position),
    position: String(r.position),
    transactionId: String(r.transaction_text),
    streamId: String(r.stream_id),
    revision: num(r.stream_revision),
    eventId: String(r.event_id),
    type: String(r.type),
    data: r.data,
    metadata: r.metadata,
    time: isoNotNull(r.created_at),
  }),
};

const whereSql = (clauses: Clause[]) =>
  clauses.length === 0
    ? { sql: '', bindings: [] as Binding[] }
    : {
        sql: `WHERE ${clauses.map((c) => `(${c.sql})`).join(' AND ')}`,
        bindings: clauses.flatMap((c) => c.bindings),
      };

/** One page and the total, in parallel. */
export async function runList<F, Row>(
  knex: Knex,
  def: ListDefinition<F, Row>,
  params: ListParams<F>,
): Promise<{ rows: Row[]; total: number }> {
  const where = whereSql([...(def.always?.(params.filter) ?? []), ...def.where(params.filter)]);
  const counted = `SELECT 1 FROM ${def.base} ${where.sql}`;
  const [page, count] = await Promise.all([
    knex.raw<{ rows: Record<string, unknown>[] }>(
      `SELECT ${def.select} FROM ${def.base} ${def.joins} ${where.sql}
       ORDER BY ${def.orderBy(params.sort)} LIMIT ? OFFSET ?`,
      [...where.bindings, params.limit, params.offset],
    ),
    knex.raw<{ rows: { n: string }[] }>(
      def.countUpTo === undefined
        ? `SELECT count(*) AS n FROM (${counted}) AS c`
        : `SELECT count(*) AS n FROM (${counted} LIMIT ${def.countUpTo + 1}) AS c`,
      where.bindings,
    ),
  ]);
  let total = Number(count.rows[0]?.n ?? 0);
  if (def.countUpTo !== undefined && total > def.countUpTo) {
    const plan = await knex.raw<{ rows: { 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }[] }>(
      `EXPLAIN (FORMAT JSON) ${counted}`,
      where.bindings,
    );
    total = Math.max(total, Math.round(plan.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0));
  }
  return { rows: page.rows.map(def.toRow), total };
}

/** One row by id (react-admin getOne); null when none. */
export async function findOne<F, Row>(
  knex: Knex,
  def: ListDefinition<F, Row>,
  filter: F,
): Promise<Row | null> {
  const where = whereSql([...(def.always?.(filter) ?? []), ...def.where(filter)]);
  const { rows } = await knex.raw<{ rows: Record<string, unknown>[] }>(
    `SELECT ${def.select} FROM ${def.base} ${def.joins} ${where.sql} LIMIT 1`,
    where.bindings,
  );
  return rows[0] ? def.toRow(rows[0]) : null;
}

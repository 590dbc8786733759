import { Router, type NextFunction, type Request, type Response } from 'express';
import type { z } from 'zod';
import {
  ADMIN_DEFAULT_SORT,
  ADMIN_FILTERS,
  ADMIN_LIMITS,
  ADMIN_MESSAGES as AM,
  ADMIN_SORTABLE,
  type AdminEventRow,
  type AdminRebuildStatusDto,
  type AdminResource,
  type AdminUserRow,
  type AdminUsersWithStatsDto,
  type AdminUserStatsDto,
  type AuditEntryDto,
  hidePrivateFields,
} from '@pawhaven/contracts';
import { notFound, requireAdmin, type EventMetadata, type RecordedEvent } from '@pawhaven/platform';
import type { AuditRow as AdoptionAuditRow } from '@pawhaven/projections';
import type { QueryDeps } from '../deps';
import {
  adoptionRequestsList,
  adoptionsList,
  commentsList,
  eventsList,
  findOne,
  postsList,
  runList,
  streamsList,
  usersList,
  type ListDefinition,
} from './lists';
import { adminOverview } from './overview';
import { projectionsScreen, rebuildState } from './projections';
import { rebuildBoardFor } from './rebuild-board';
import { parseListParams, sendList } from './simple-rest';

/** An `adoption_audit` row as `pg` reads it (the projection declares the columns), with the actor's name. */
type AuditRow = AdoptionAuditRow<Date, string> & { actor_username: string | null };

/**
 * Every admin answer goes through here, present routes and future ones: an event anywhere in it (an object with a
 * `type` and `data`) shows its private fields as their placeholder (contracts' `hidePrivateFields`: a private
 * message reads '[private message]'). Nothing in the product gives admins access to private messages.
 */
function withoutPrivateFields(_req: Request, res: Response, next: NextFunction): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => json(hiddenIn(body, 0));
  next();
}

/** `value` with every event in it (plain objects and arrays, a few levels deep) passed through hidePrivateFields. */
function hiddenIn(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > 6) return value;
  if (Array.isArray(value)) {
    const items = value.map((v) => hiddenIn(v, depth + 1));
    return items.some((v, i) => v !== value[i]) ? items : value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return value; // a Date, a Buffer: no event inside
  const o = value as Record<string, unknown>;
  if (typeof o.type === 'string' && 'data' in o)
    return hidePrivateFields(o as { type: string; data: unknown });
  let copy: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(o)) {
    const hidden = hiddenIn(v, depth + 1);
    if (hidden !== v) (copy ??= { ...o })[k] = hidden;
  }
  return copy ?? value;
}

/**
 * Admin reads (everything behind requireAdmin): the react-admin lists (ra-data-simple-rest conventions, simple-rest.ts)
 * on the same paths as the plain admin calls, the overview, the event browser, the Projections screen and the adoption
 * audit.
 */
export function adminQueries({ db, projections, presence, store }: QueryDeps): Router {
  const router = Router();
  router.use(requireAdmin, withoutPrivateFields);
  const knex = db.knex;
  const board = rebuildBoardFor(db.connectionString);

  const withPresence = <Row>(row: Row): Row =>
    row && typeof row === 'object' && 'isAdmin' in row
      ? ({
          ...row,
          status: presence.isOnline((row as unknown as AdminUserRow).id) ? 'online' : 'offline',
        } as Row)
      : row;

  /**
   * The event browser shows events as the app reads them: personal fields opened with their owner's key (a forgotten
   * person's read as the placeholder), when the store is the crypto-shredding one. Private fields never reach an
   * admin whatever this does (`withoutPrivateFields`, below).
   */
  const opener = (store as { openBatch?: (batch: RecordedEvent[]) => Promise<RecordedEvent[]> }).openBatch;
  const openEvents = async <Row>(rows: Row[]): Promise<Row[]> => {
    if (!opener) return rows;
    const events = rows as unknown as AdminEventRow[];
    const opened = await opener.call(
      store,
      events.map((r) => ({
        eventId: r.eventId,
        streamId: r.streamId,
        streamRevision: BigInt(r.revision),
        type: r.type,
        data: r.data,
        metadata: r.metadata as EventMetadata,
        position: BigInt(r.position),
        transactionId: BigInt(r.transactionId),
        createdAt: new Date(r.time),
      })),
    );
    return events.map((r, i) => ({ ...r, data: opened[i]!.data })) as unknown as Row[];
  };
  const shown = <Row>(def: unknown, rows: Row[]) =>
    def === eventsList ? openEvents(rows) : Promise.resolve(rows.map(withPresence));

  /** GET /{resource}: one page (range) or the plain array; `fixed` comes from the path (per-user lists). */
  const list =
    <F, Row>(resource: AdminResource, def: ListDefinition<F, Row>, fixed?: (req: Request) => Partial<F>) =>
    async (req: Request, res: Response) => {
      const params = parseListParams(
        req,
        resource,
        ADMIN_SORTABLE[resource],
        ADMIN_DEFAULT_SORT[resource],
        ADMIN_FILTERS[resource] as z.ZodType,
        fixed?.(req) ?? {},
      ) as Parameters<typeof runList<F, Row>>[2];
      const { rows, total } = await runList(knex, def, params);
      sendList(res, resource, params, await shown(def, rows), total);
    };

  /** GET /{resource}/{id}: one row (react-admin getOne). */
  const one =
    <F, Row>(def: ListDefinition<F, Row>, missing: string) =>
    async (req: Request, res: Response) => {
      const row = await findOne(knex, def, { id: [String(req.params.id)] } as F);
      if (!row) throw notFound(missing);
      res.json((await shown(def, [row]))[0]);
    };

  // ── Overview and Manage Users ──
  router.get('/overview', async (_req, res) => {
    res.json(await adminOverview(knex));
  });

  router.get('/users-with-stats', async (_req, res) => {
    const page = (isVeterinarian: boolean) =>
      runList(knex, usersList, {
        sort: { field: 'createdAt', order: 'DESC' },
        range: null,
        filter: { isVeterinarian },
        offset: 0,
        limit: ADMIN_LIMITS.plainListMax,
      });
    const [vets, regular] = await Promise.all([page(true), page(false)]);
    const stats = (u: AdminUserRow) => ({
      posts: u.posts,
      comments: u.comments,
      adoptions: u.adoptions,
      requests: u.requests,
    });
    const body: AdminUsersWithStatsDto = {
      veterinarians: vets.rows.map(withPresence),
      regularUsers: regular.rows.map(withPresence),
      userStats: Object.fromEntries([...vets.rows, ...regular.rows].map((u) => [u.id, stats(u)])),
      totals: { veterinarians: vets.total, regularUsers: regular.total },
    };
    res.json(body);
  });

  router.get('/user-stats/:id', async (req, res) => {
    const u = await findOne(knex, usersList, { id: [req.params.id] });
    if (!u) throw notFound(AM.userNotFound);
    const body: AdminUserStatsDto = {
      _id: u.id,
      id: u.id,
      userId: u.id,
      username: u.username,
      email: u.email,
      isVeterinarian: u.isVeterinarian,
      posts: u.posts,
      comments: u.comments,
      adoptions: u.adoptions,
      requests: u.requests,
    };
    res.json(body);
  });

  // ── The lists: react-admin resources and the plain calls on the same paths ──
  const byUser = (req: Request) => ({ userId: String(req.params.userId) });
  router.get('/users', list('users', usersList));
  router.get('/users/:id', one(usersList, AM.userNotFound));

  router.get('/adoptions', list('adoptions', adoptionsList));
  router.get('/adoptions/user/:userId', list('adoptions', adoptionsList, byUser));
  router.get('/adoptions/:id', one(adoptionsList, AM.adoptionNotFound));

  router.get('/adoption-requests', list('adoption-requests', adoptionRequestsList));
  router.get('/adoption-requests/user/:userId', list('adoption-requests', adoptionRequestsList, byUser));
  router.get('/adoption-requests/:id', one(adoptionRequestsList, AM.requestNotFound));

  router.get('/posts', list('posts', postsList));
  router.get('/posts/user/:userId', list('posts', postsList, byUser));
  router.get('/posts/:id', one(postsList, AM.postNotFound));

  router.get('/comments', list('comments', commentsList));
  router.get('/comments/user/:userId', list('comments', commentsList, byUser));
  router.get(
    '/comments/post/:postId',
    list('comments', commentsList, (req) => ({ postId: String(req.params.postId) })),
  );
  router.get('/comments/:id', one(commentsList, AM.commentNotFound));

  // ── Event browser ──
  router.get('/streams', list('streams', streamsList));
  router.get('/streams/:id', one(streamsList, AM.streamNotFound));
  router.get('/events', list('events', eventsList));
  router.get('/events/:id', one(eventsList, AM.eventNotFound));

  // ── Projections screen (the rebuild itself is a command: POST /api/admin/projections/rebuild) ──
  router.get('/projections', async (_req, res) => {
    res.json(await projectionsScreen(knex, projections, board));
  });
  router.get('/projections/rebuild', async (_req, res) => {
    const body: AdminRebuildStatusDto = { rebuild: await rebuildState(knex, board) };
    res.json(body);
  });

  // ── The adoption audit: every status change of an ad and its requests, in log order ──
  router.get('/adoptions/:id/history', async (req, res) => {
    const rows = (await db
      .knex('adoption_audit as h')
      .leftJoin('users as u', 'u.id', 'h.actor_id')
      .select('h.*', 'u.username as actor_username')
      .where('h.ad_id', req.params.id)
      .orderBy('h.position', 'asc')) as AuditRow[];
    if (rows.length === 0) throw notFound('Adoption post not found');
    const ad = await db
      .knex('adoption_ads')
      .where({ id: req.params.id })
      .first<{ name: string; status: string; owner_id: string }>('name', 'status', 'owner_id');
    const timeline: AuditEntryDto[] = rows.map((r) => ({
      position: String(r.position),
      eventType: r.event_type,
      requestId: r.request_id,
      subject: r.subject,
      fromStatus: r.from_status,
      toStatus: r.to_status,
      // The facts stay after the person is deleted; only who they were is gone.
      actor: r.actor_id ? { _id: r.actor_id, username: r.actor_username ?? 'deleted user' } : null,
      at: r.at.toISOString(),
      details: r.details,
    }));
    res.json({ adId: req.params.id, ad: ad ?? null, timeline });
  });

  return router;
}

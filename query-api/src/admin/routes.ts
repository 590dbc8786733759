import { Router } from 'express';
import type { AuditEntryDto } from '@pawhaven/contracts';
import { notFound, requireAdmin } from '@pawhaven/platform';
import type { QueryDeps } from '../deps';

type AuditRow = {
  position: string;
  ad_id: string;
  request_id: string | null;
  subject: 'ad' | 'request';
  event_type: string;
  from_status: string | null;
  to_status: string | null;
  actor_id: string | null;
  actor_username: string | null;
  at: Date;
  details: Record<string, unknown>;
};

/** Admin reads. The adoption audit: every status change of an ad and its requests, in log order. */
export function adminQueries({ db }: QueryDeps): Router {
  const router = Router();
  router.use(requireAdmin);

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
      actor: r.actor_id ? { _id: r.actor_id, username: r.actor_username } : null,
      at: r.at.toISOString(),
      details: r.details,
    }));
    res.json({ adId: req.params.id, ad: ad ?? null, timeline });
  });

  return router;
}

import { Router } from 'express';
import { ADOPTION_MESSAGES as M, adoptionListQuery } from '@pawhaven/contracts';
import { currentUserId, forbidden, notFound, requireUser, unauthorized } from '@pawhaven/platform';
import type { QueryDeps } from '../deps';
import {
  REQUEST_COLUMNS,
  toAdDto,
  toHistoryDto,
  toRequestDto,
  type AdRow,
  type HistoryRow,
  type RequestRow,
} from './ads';
import { adsQuery, listAdoptionAds } from './listing';

/** Reads of the adoption context, from the adoption-ads read model. */
export function adoptionQueries({ db }: QueryDeps): Router {
  const router = Router();
  const knex = db.knex;

  const requestsOf = async (adIds: string[]) => {
    if (adIds.length === 0) return new Map<string, ReturnType<typeof toRequestDto>[]>();
    const rows = (await knex('adoption_requests as r')
      .leftJoin('users as ru', 'ru.id', 'r.requester_id')
      .select(knex.raw(REQUEST_COLUMNS))
      .whereIn('r.ad_id', adIds)
      .orderBy('r.requested_at', 'asc')) as RequestRow[];
    const byAd = new Map<string, ReturnType<typeof toRequestDto>[]>();
    for (const r of rows) byAd.set(r.ad_id, [...(byAd.get(r.ad_id) ?? []), toRequestDto(r)]);
    return byAd;
  };

  /** Public listing: newest first, paginated (X-Total-Count), never the signed-in viewer's own ads. */
  router.get('/', async (req, res) => {
    const { ads, total, page, limit } = await listAdoptionAds(
      knex,
      adoptionListQuery.parse(req.query),
      req.auth?.userId,
    );
    res.setHeader('X-Total-Count', String(total));
    res.setHeader('X-Page', String(page));
    res.setHeader('X-Per-Page', String(limit));
    res.json(ads);
  });

  /** The requester's own requests (the adoption history page). */
  router.get('/history', requireUser, async (req, res) => {
    const rows = (await knex('adoption_requests as r')
      .join('adoption_ads as a', 'a.id', 'r.ad_id')
      .leftJoin('users as ru', 'ru.id', 'r.requester_id')
      .select(
        knex.raw(REQUEST_COLUMNS),
        'a.name as pet_name',
        'a.image_url as pet_image',
        'a.pet_type as pet_type',
        'a.status as ad_status',
      )
      .where('r.requester_id', currentUserId(req))
      .orderBy('r.requested_at', 'desc')) as HistoryRow[];
    res.setHeader('Cache-Control', 'no-store');
    res.json(rows.map(toHistoryDto));
  });

  /** A user's ads (public); with includeRequests=true also their requests, for the owner or an admin only. */
  router.get('/user/:userId', async (req, res) => {
    const { userId } = req.params;
    const includeRequests = req.query.includeRequests === 'true';
    if (includeRequests && !req.auth) throw unauthorized('No token provided');
    if (includeRequests && req.auth?.userId !== userId && !req.auth?.isAdmin)
      throw forbidden('Only the owner can see the requests on these ads');
    const rows = (await adsQuery(knex, req.auth?.userId)
      .where('a.owner_id', userId)
      .orderBy('a.created_at', 'desc')) as AdRow[];
    const ads = rows.map(toAdDto);
    if (includeRequests) {
      const requests = await requestsOf(ads.map((a) => a._id));
      for (const ad of ads) ad.requests = requests.get(ad._id) ?? [];
    }
    res.json(ads);
  });

  router.get('/:postId/requests', requireUser, async (req, res) => {
    const ad = await knex('adoption_ads')
      .where({ id: req.params.postId })
      .whereNull('deleted_at')
      .first<{ owner_id: string } | undefined>('owner_id');
    if (!ad) throw notFound(M.adNotFound);
    if (ad.owner_id !== req.auth!.userId && !req.auth!.isAdmin) throw forbidden(M.notOwner);
    const adId = String(req.params.postId);
    res.json((await requestsOf([adId])).get(adId) ?? []);
  });

  router.get('/:id', async (req, res) => {
    const row = (await adsQuery(knex, req.auth?.userId).where('a.id', req.params.id).first()) as
      AdRow | undefined;
    if (!row) throw notFound(M.adNotFound);
    res.json(toAdDto(row));
  });

  return router;
}

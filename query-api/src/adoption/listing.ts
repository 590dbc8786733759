import type { Knex } from 'knex';
import type { z } from 'zod';
import type { adoptionListQuery } from '@pawhaven/contracts';
import { AD_COLUMNS, prefixQuery, toAdDto, type AdRow } from './ads';

/** Ads that are not deleted, with their owner, and for a signed-in viewer the viewer's latest request on each. */
export function adsQuery(knex: Knex, viewerId: string | undefined) {
  const q = knex('adoption_ads as a')
    .leftJoin('users as u', 'u.id', 'a.owner_id')
    .whereNull('a.deleted_at')
    .select(knex.raw(AD_COLUMNS));
  if (viewerId) {
    // For 'Adoption request pending review' on the viewer's cards.
    q.select(
      knex.raw(
        `(SELECT r.id FROM adoption_requests r WHERE r.ad_id = a.id AND r.requester_id = ? ORDER BY r.requested_at DESC LIMIT 1) AS my_request_id`,
        [viewerId],
      ),
      knex.raw(
        `(SELECT r.status FROM adoption_requests r WHERE r.ad_id = a.id AND r.requester_id = ? ORDER BY r.requested_at DESC LIMIT 1) AS my_request_status`,
        [viewerId],
      ),
    );
  }
  return q;
}

/** One page of the public listing: filters and search run on the server; a viewer never sees their own ads. */
export async function listAdoptionAds(
  knex: Knex,
  query: z.infer<typeof adoptionListQuery>,
  viewerId: string | undefined,
) {
  const q = adsQuery(knex, viewerId);
  if (viewerId) q.whereNot('a.owner_id', viewerId);
  if (query.filter === 'dog') q.where('a.pet_type', 'Dog');
  else if (query.filter === 'cat') q.where('a.pet_type', 'Cat');
  else if (query.filter === 'other') q.whereNotIn('a.pet_type', ['Dog', 'Cat']);
  if (query.city)
    q.whereRaw(`lower(a.location) LIKE ? ESCAPE '\\'`, [
      `%${query.city.toLowerCase().replace(/[%_\\]/g, '\\$&')}%`,
    ]);
  const search = query.q ? prefixQuery(query.q) : null;
  if (search) q.whereRaw(`a.search @@ to_tsquery('simple', ?)`, [search]);
  // Available pets first, then the rest (adopted), newest first within each: the page walks the
  // adoption_ads_listing_available_first index. The count is a separate, cheaper query run alongside.
  const count = q.clone().clearSelect().count({ n: '*' });
  const page = q
    .orderByRaw(`(a.status <> 'available'), a.created_at DESC, a.id DESC`)
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  const [rows, counted] = (await Promise.all([page, count])) as [AdRow[], { n: string }[]];
  return { ads: rows.map(toAdDto), total: Number(counted[0]?.n ?? 0), page: query.page, limit: query.limit };
}

import type { Knex } from 'knex';
import type { z } from 'zod';
import type { adoptionListQuery } from '@pawhaven/contracts';
import { AD_COLUMNS, prefixQuery, toAdDto, type AdRow } from './ads';

type ListQuery = z.infer<typeof adoptionListQuery>;

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

/** The listing's filters on `adoption_ads as a`: the kind, a city (a substring, through trigrams), a text search. */
function filtered(q: Knex.QueryBuilder, query: ListQuery) {
  if (query.filter === 'dog') q.where('a.pet_type', 'Dog');
  else if (query.filter === 'cat') q.where('a.pet_type', 'Cat');
  else if (query.filter === 'other') q.whereNotIn('a.pet_type', ['Dog', 'Cat']);
  if (query.city)
    q.whereRaw(`lower(a.location) LIKE ? ESCAPE '\\'`, [
      `%${query.city.toLowerCase().replace(/[%_\\]/g, '\\$&')}%`,
    ]);
  const search = query.q ? prefixQuery(query.q) : null;
  if (search) q.whereRaw(`a.search @@ to_tsquery('simple', ?)`, [search]);
  return q;
}

/**
 * Totals counted for a city or a text search, per database, each with the listed ads' change count it was counted
 * at: the next page of the same search reads it again instead of counting every match again.
 */
const countedTotals = new WeakMap<Knex, Map<string, { changes: number; total: number }>>();
const COUNTED_TOTALS_KEPT = 1_000;

/**
 * How many listed ads the page's filters match, the viewer's own left out. Without a city or text search: from the
 * counts the adoption-ads projection keeps (everyone's of the filter's kinds, less the viewer's), so no page counts
 * every ad. With one: everyone's matches are counted through the trigram or text index once per change of the
 * listed ads (kept in `countedTotals`), the viewer's own through the owner index.
 */
async function listingTotal(knex: Knex, query: ListQuery, viewerId: string | undefined): Promise<number> {
  const counts = knex('adoption_listing_counts');
  if (!query.city && !query.q) {
    const [row] = (await counts
      .whereIn('owner_id', viewerId ? ['', viewerId] : [''])
      .whereIn('bucket', query.filter === 'all' ? ['dog', 'cat', 'other'] : [query.filter])
      .select(
        knex.raw(
          `coalesce(sum(n) FILTER (WHERE owner_id = ''), 0) - coalesce(sum(n) FILTER (WHERE owner_id <> ''), 0) AS n`,
        ),
      )) as { n: string }[];
    return Number(row?.n ?? 0);
  }
  const matching = () => filtered(knex('adoption_ads as a').whereNull('a.deleted_at'), query);
  const countOf = async (q: Knex.QueryBuilder) =>
    Number(((await q.count({ n: '*' })) as { n: string }[])[0]!.n);
  const [changesRow, own] = await Promise.all([
    counts.where({ owner_id: '', bucket: 'changes' }).first<{ n: number } | undefined>('n'),
    viewerId ? countOf(matching().where('a.owner_id', viewerId)) : Promise.resolve(0),
  ]);
  const changes = changesRow?.n ?? 0;
  let kept = countedTotals.get(knex);
  if (!kept) countedTotals.set(knex, (kept = new Map()));
  const key = JSON.stringify([query.filter, query.city ?? '', query.q ?? '']);
  let everyone = kept.get(key);
  if (everyone?.changes !== changes) {
    everyone = { changes, total: await countOf(matching()) };
    kept.delete(key); // the newest last: the oldest go first
    kept.set(key, everyone);
    if (kept.size > COUNTED_TOTALS_KEPT) kept.delete(kept.keys().next().value!);
  }
  return everyone.total - own;
}

/** One page of the public listing: filters and search run on the server; a viewer never sees their own ads. */
export async function listAdoptionAds(knex: Knex, query: ListQuery, viewerId: string | undefined) {
  const q = filtered(adsQuery(knex, viewerId), query);
  if (viewerId) q.whereNot('a.owner_id', viewerId);
  // Available pets first, then the rest (adopted), newest first within each: the page walks the
  // adoption_ads_listing_available_first index. The total is read alongside.
  const page = q
    .orderByRaw(`(a.status <> 'available'), a.created_at DESC, a.id DESC`)
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  const [rows, total] = (await Promise.all([page, listingTotal(knex, query, viewerId)])) as [AdRow[], number];
  return { ads: rows.map(toAdDto), total, page: query.page, limit: query.limit };
}

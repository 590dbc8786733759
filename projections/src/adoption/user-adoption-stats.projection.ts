import { adIdOfStream, type AdoptionEvent, type UserEvent } from '@pawhaven/contracts';
import { defineProjection } from '@pawhaven/platform';
import type { Knex } from 'knex';
import { addTo, removeFrom } from '../fold-index';

const bump = (tx: Knex.Transaction, userId: string, column: 'ads' | 'requests', by: number) =>
  tx.raw(
    `INSERT INTO user_adoption_stats (user_id, ${column}) VALUES (?, ?)
     ON CONFLICT (user_id) DO UPDATE SET ${column} = user_adoption_stats.${column} + EXCLUDED.${column}`,
    [userId, by],
  );

/** Takes requests away from their requesters' counts (only from rows that exist: a deleted user has none). */
const dropRequests = (tx: Knex.Transaction, removed: string) =>
  tx.raw(
    `WITH r AS (${removed}), n AS (SELECT requester_id, count(*)::int AS n FROM r GROUP BY requester_id)
     UPDATE user_adoption_stats s SET requests = s.requests - n.n FROM n WHERE s.user_id = n.requester_id`,
  );

type Handled = AdoptionEvent | Extract<UserEvent, { type: 'UserDeleted' }>;

const COUNTED_EVENT_TYPES = [
  'AdoptionAdPublished',
  'AdoptionAdDeleted',
  'AdoptionRequested',
  'AdoptionRequestDeleted',
  'UserDeleted',
] as const satisfies Handled['type'][];
type Counted = Extract<Handled, { type: (typeof COUNTED_EVENT_TYPES)[number] }>;

type StatsRow = { user_id: string; ads: number; requests: number };
type AdOwnerRow = { ad_id: string; owner_id: string };
type CountedRequestRow = { request_id: string; ad_id: string; requester_id: string };

/**
 * Per-user counts for the admin statistics: live ads owned and adoption requests sent (each still in the read
 * models: one an administrator deleted, or one on an ad whose owner was deleted, no longer counts). Its lookups
 * (`user_adoption_stats_ads`: ad → owner; `user_adoption_stats_requests`: request → ad, requester) are its own.
 */
export const userAdoptionStatsProjection = defineProjection({
  name: 'user-adoption-stats',
  tables: ['user_adoption_stats', 'user_adoption_stats_ads', 'user_adoption_stats_requests'],
  handles: COUNTED_EVENT_TYPES,
  // Counts: no personal field.
  readsPersonalData: false,
  async apply(tx, recorded) {
    const event = { type: recorded.type, data: recorded.data } as Handled;
    const adId = adIdOfStream(recorded.streamId);
    switch (event.type) {
      case 'AdoptionAdPublished':
        await tx('user_adoption_stats_ads')
          .insert({ ad_id: adId, owner_id: event.data.ownerId })
          .onConflict('ad_id')
          .ignore();
        await bump(tx, event.data.ownerId, 'ads', 1);
        return;
      case 'AdoptionAdDeleted': {
        const owner = await tx('user_adoption_stats_ads')
          .where({ ad_id: adId })
          .first<{ owner_id: string } | undefined>('owner_id');
        if (owner) await bump(tx, owner.owner_id, 'ads', -1);
        return;
      }
      case 'AdoptionRequested': {
        // A request to an ad whose owner was deleted is not in the read models, so it does not count.
        if (!(await tx('user_adoption_stats_ads').where({ ad_id: adId }).first('ad_id'))) return;
        const inserted = await tx('user_adoption_stats_requests')
          .insert({ request_id: event.data.requestId, ad_id: adId, requester_id: event.data.requesterId })
          .onConflict('request_id')
          .ignore()
          .returning('request_id');
        if (inserted.length > 0) await bump(tx, event.data.requesterId, 'requests', 1);
        return;
      }
      case 'AdoptionRequestDeleted':
        await dropRequests(
          tx,
          tx('user_adoption_stats_requests')
            .where({ request_id: event.data.requestId })
            .delete()
            .returning('requester_id')
            .toString(),
        );
        return;
      case 'UserDeleted': {
        const userId = event.data.userId;
        // Their ads go with every request on them (the requesters count one fewer each), then their own requests.
        await dropRequests(
          tx,
          tx('user_adoption_stats_requests')
            .whereIn('ad_id', tx('user_adoption_stats_ads').where({ owner_id: userId }).select('ad_id'))
            .delete()
            .returning('requester_id')
            .toString(),
        );
        await tx('user_adoption_stats_ads').where({ owner_id: userId }).delete();
        await tx('user_adoption_stats_requests').where({ requester_id: userId }).delete();
        await tx('user_adoption_stats').where({ user_id: userId }).delete();
        return;
      }
      default:
        return;
    }
  },
  fold: () => {
    const stats = new Map<string, StatsRow>();
    const adOwners = new Map<string, AdOwnerRow>();
    const counted = new Map<string, CountedRequestRow>();
    const adsByOwner = new Map<string, Set<string>>();
    const countedByAd = new Map<string, Set<string>>();
    const countedByRequester = new Map<string, Set<string>>();

    /** As `bump`: a user without a row gets one, the other count at its default 0. */
    const add = (userId: string, column: 'ads' | 'requests', by: number) => {
      const row = stats.get(userId);
      if (row) row[column] += by;
      else if (column === 'ads') stats.set(userId, { user_id: userId, ads: by, requests: 0 });
      else stats.set(userId, { user_id: userId, ads: 0, requests: by });
    };
    /** As `dropRequests` for one request: its requester counts one fewer, if they have a row. */
    const drop = (request: CountedRequestRow) => {
      counted.delete(request.request_id);
      removeFrom(countedByAd, request.ad_id, request.request_id);
      removeFrom(countedByRequester, request.requester_id, request.request_id);
      const row = stats.get(request.requester_id);
      if (row) row.requests -= 1;
    };

    return {
      apply(recorded) {
        const event = recorded as unknown as Counted;
        switch (event.type) {
          case 'AdoptionAdPublished': {
            const adId = adIdOfStream(recorded.streamId);
            const ownerId = event.data.ownerId;
            if (!adOwners.has(adId)) {
              adOwners.set(adId, { ad_id: adId, owner_id: ownerId });
              addTo(adsByOwner, ownerId, adId);
            }
            // Counted even when the ad was already known, as `apply` does.
            add(ownerId, 'ads', 1);
            return;
          }
          case 'AdoptionAdDeleted': {
            const owner = adOwners.get(adIdOfStream(recorded.streamId));
            if (owner) add(owner.owner_id, 'ads', -1);
            return;
          }
          case 'AdoptionRequested': {
            const adId = adIdOfStream(recorded.streamId);
            const { requestId, requesterId } = event.data;
            if (!adOwners.has(adId) || counted.has(requestId)) return;
            counted.set(requestId, { request_id: requestId, ad_id: adId, requester_id: requesterId });
            addTo(countedByAd, adId, requestId);
            addTo(countedByRequester, requesterId, requestId);
            add(requesterId, 'requests', 1);
            return;
          }
          case 'AdoptionRequestDeleted': {
            const request = counted.get(event.data.requestId);
            if (request) drop(request);
            return;
          }
          case 'UserDeleted': {
            const userId = event.data.userId;
            for (const adId of adsByOwner.get(userId) ?? []) {
              // `drop` takes each request out of the set being iterated: a Set's iteration allows that.
              for (const requestId of countedByAd.get(adId) ?? []) drop(counted.get(requestId)!);
              adOwners.delete(adId);
            }
            adsByOwner.delete(userId);
            for (const requestId of countedByRequester.get(userId) ?? []) {
              const request = counted.get(requestId)!;
              counted.delete(requestId);
              removeFrom(countedByAd, request.ad_id, requestId);
            }
            countedByRequester.delete(userId);
            stats.delete(userId);
            return;
          }
          default: {
            const _exhaustive: never = event;
            return;
          }
        }
      },
      rows: () => ({
        user_adoption_stats: stats.values(),
        user_adoption_stats_ads: adOwners.values(),
        user_adoption_stats_requests: counted.values(),
      }),
    };
  },
});

import { adIdOfStream, type AdoptionEvent, type UserEvent } from '@pawhaven/contracts';
import { defineReadModel } from '@pawhaven/platform';

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
export const userAdoptionStatsProjection = defineReadModel<{
  user_adoption_stats: StatsRow;
  user_adoption_stats_ads: AdOwnerRow;
  user_adoption_stats_requests: CountedRequestRow;
}>({
  name: 'user-adoption-stats',
  tables: {
    user_adoption_stats: { key: ['user_id'] },
    user_adoption_stats_ads: { key: ['ad_id'], lookups: ['owner_id'] },
    user_adoption_stats_requests: { key: ['request_id'], lookups: ['ad_id', 'requester_id'] },
  },
  handles: COUNTED_EVENT_TYPES,
  // Counts: no personal field.
  readsPersonalData: false,
  evolve(rows, recorded) {
    const {
      user_adoption_stats: stats,
      user_adoption_stats_ads: ads,
      user_adoption_stats_requests: counted,
    } = rows;
    /** A user without a row gets one, the other count at its default 0. */
    const add = (userId: string, column: 'ads' | 'requests', by: number) => {
      const row = stats.get(userId) ?? { user_id: userId, ads: 0, requests: 0 };
      stats.put({ ...row, [column]: row[column] + by });
    };
    /** A request no longer counts: its requester counts one fewer, if they have a row (a deleted user has none). */
    const drop = (request: CountedRequestRow) => {
      counted.delete(request.request_id);
      const row = stats.get(request.requester_id);
      if (row) stats.put({ ...row, requests: row.requests - 1 });
    };
    const event = recorded as unknown as Counted;
    switch (event.type) {
      case 'AdoptionAdPublished': {
        const adId = adIdOfStream(recorded.streamId);
        const ownerId = event.data.ownerId;
        if (!ads.get(adId)) ads.put({ ad_id: adId, owner_id: ownerId });
        // Counted even when the ad was already known.
        add(ownerId, 'ads', 1);
        return;
      }
      case 'AdoptionAdDeleted': {
        const owner = ads.get(adIdOfStream(recorded.streamId));
        if (owner) add(owner.owner_id, 'ads', -1);
        return;
      }
      case 'AdoptionRequested': {
        const adId = adIdOfStream(recorded.streamId);
        const { requestId, requesterId } = event.data;
        // Every row the event names asked before branching (one load on a live batch): the ad, the request, the
        // requester's counts (`add` reads them again).
        const [ad, known] = [ads.get(adId), counted.get(requestId), stats.get(requesterId)];
        // A request to an ad whose owner was deleted is not in the read models, so it does not count.
        if (!ad || known) return;
        counted.put({ request_id: requestId, ad_id: adId, requester_id: requesterId });
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
        // Their ads go with every request on them (the requesters count one fewer each), then their own requests.
        for (const ad of ads.find('owner_id', userId)) {
          for (const request of counted.find('ad_id', ad.ad_id)) drop(request);
          ads.delete(ad.ad_id);
        }
        for (const request of counted.find('requester_id', userId)) counted.delete(request.request_id);
        stats.delete(userId);
        return;
      }
      default: {
        const _exhaustive: never = event;
        return;
      }
    }
  },
});

import { adIdOfStream, type AdoptionEvent, type UserEvent } from '@pawhaven/contracts';
import { defineProjection } from '@pawhaven/platform';
import type { Knex } from 'knex';

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

/**
 * Per-user counts for the admin statistics: live ads owned and adoption requests sent (each still in the read
 * models: one an administrator deleted, or one on an ad whose owner was deleted, no longer counts). Its lookups
 * (`user_adoption_stats_ads`: ad → owner; `user_adoption_stats_requests`: request → ad, requester) are its own.
 */
export const userAdoptionStatsProjection = defineProjection({
  name: 'user-adoption-stats',
  tables: ['user_adoption_stats', 'user_adoption_stats_ads', 'user_adoption_stats_requests'],
  handles: [
    'AdoptionAdPublished',
    'AdoptionAdDeleted',
    'AdoptionRequested',
    'AdoptionRequestDeleted',
    'UserDeleted',
  ] satisfies Handled['type'][],
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
});

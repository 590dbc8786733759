import { adIdOfStream, type AdoptionEvent } from '@pawhaven/contracts';
import { defineProjection } from '@pawhaven/platform';
import type { Knex } from 'knex';

const bump = (tx: Knex.Transaction, userId: string, column: 'ads' | 'requests', by: number) =>
  tx.raw(
    `INSERT INTO user_adoption_stats (user_id, ${column}) VALUES (?, ?)
     ON CONFLICT (user_id) DO UPDATE SET ${column} = user_adoption_stats.${column} + EXCLUDED.${column}`,
    [userId, by],
  );

/** Per-user counts for the admin statistics: live ads owned and adoption requests sent. */
export const userAdoptionStatsProjection = defineProjection({
  name: 'user-adoption-stats',
  tables: ['user_adoption_stats', 'user_adoption_stats_ads'],
  handles: [
    'AdoptionAdPublished',
    'AdoptionAdDeleted',
    'AdoptionRequested',
  ] satisfies AdoptionEvent['type'][],
  async apply(tx, recorded) {
    const event = { type: recorded.type, data: recorded.data } as AdoptionEvent;
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
      case 'AdoptionRequested':
        await bump(tx, event.data.requesterId, 'requests', 1);
        return;
      default:
        return;
    }
  },
});

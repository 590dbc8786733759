import type { Knex } from 'knex';
import {
  adIdOfStream,
  ADOPTION_EVENT_TYPES,
  type AdoptionEvent,
  type PetDetails,
  type UserEvent,
} from '@pawhaven/contracts';
import { defineProjection } from '@pawhaven/platform';

const detailColumns = (d: Partial<PetDetails>) => {
  const map: Record<keyof PetDetails, string> = {
    name: 'name',
    age: 'age',
    ageUnit: 'age_unit',
    petType: 'pet_type',
    breed: 'breed',
    gender: 'gender',
    size: 'size',
    vaccinated: 'vaccinated',
    spayedNeutered: 'spayed_neutered',
    goodWithChildren: 'good_with_children',
    goodWithDogs: 'good_with_dogs',
    goodWithCats: 'good_with_cats',
    description: 'description',
    location: 'location',
    imageUrl: 'image_url',
  };
  return Object.fromEntries(Object.entries(d).map(([k, v]) => [map[k as keyof PetDetails], v]));
};

const setRequest = (
  tx: Knex.Transaction,
  requestId: string,
  status: string,
  at: string,
  reason: string | null = null,
) => tx('adoption_requests').where({ id: requestId }).update({ status, responded_at: at, reason });

/**
 * A deleted user's ads (with every request on them) and the requests they sent leave the read model; the ads they
 * had requested count one request fewer each (`request_count` is the number of request rows).
 */
async function forgetUser(tx: Knex.Transaction, userId: string) {
  await tx.raw(
    `WITH ads AS (DELETE FROM adoption_ads WHERE owner_id = ? RETURNING id)
     DELETE FROM adoption_requests WHERE ad_id IN (SELECT id FROM ads)`,
    [userId],
  );
  await tx.raw(
    `WITH r AS (DELETE FROM adoption_requests WHERE requester_id = ? RETURNING ad_id),
     n AS (SELECT ad_id, count(*)::int AS n FROM r GROUP BY ad_id)
     UPDATE adoption_ads a SET request_count = a.request_count - n.n FROM n WHERE a.id = n.ad_id`,
    [userId],
  );
}

/** `adoption_ads` and `adoption_requests`: the listing, an owner's ads with their requests, a requester's history. */
export const adoptionAdsProjection = defineProjection({
  name: 'adoption-ads',
  tables: ['adoption_ads', 'adoption_requests'],
  handles: [...ADOPTION_EVENT_TYPES, 'UserDeleted'],
  async apply(tx, recorded) {
    const event = { type: recorded.type, data: recorded.data } as
      AdoptionEvent | Extract<UserEvent, { type: 'UserDeleted' }>;
    if (event.type === 'UserDeleted') {
      await forgetUser(tx, event.data.userId);
      return;
    }
    const adId = adIdOfStream(recorded.streamId);
    const ad = () => tx('adoption_ads').where({ id: adId });
    switch (event.type) {
      case 'AdoptionAdPublished':
        await tx('adoption_ads')
          .insert({
            id: adId,
            owner_id: event.data.ownerId,
            ...detailColumns(event.data.details),
            status: 'available',
            created_at: event.data.publishedAt,
            updated_at: event.data.publishedAt,
          })
          .onConflict('id')
          .ignore();
        return;
      case 'AdoptionAdUpdated':
        await ad().update({ ...detailColumns(event.data.changes), updated_at: event.data.updatedAt });
        return;
      case 'AdoptionAdDeleted':
        await ad().update({
          status: 'deleted',
          deleted_at: event.data.deletedAt,
          updated_at: event.data.deletedAt,
        });
        return;
      case 'AdoptionRequested': {
        const d = event.data;
        // Only on an ad the model has: one whose owner was deleted is gone, and so is anything sent to it.
        if (!(await ad().first('id'))) return;
        const inserted = await tx('adoption_requests')
          .insert({
            id: d.requestId,
            ad_id: adId,
            requester_id: d.requesterId,
            name: d.name,
            email: d.email,
            phone: d.phone,
            message: d.message,
            pet_history_image: d.petHistoryImage,
            status: 'pending',
            requested_at: d.requestedAt,
          })
          .onConflict('id')
          .ignore()
          .returning('id');
        if (inserted.length > 0) await ad().increment('request_count', 1);
        return;
      }
      case 'AdoptionRequestDeleted': {
        const removed = await tx('adoption_requests')
          .where({ id: event.data.requestId })
          .delete()
          .returning('ad_id');
        if (removed.length > 0) await ad().decrement('request_count', 1);
        return;
      }
      case 'AdoptionRequestAccepted':
        await setRequest(tx, event.data.requestId, 'accepted', event.data.acceptedAt);
        return;
      case 'PetAdopted':
        await ad().update({ status: 'adopted', updated_at: event.data.adoptedAt });
        return;
      case 'AdoptionRequestRejected':
        await setRequest(tx, event.data.requestId, 'rejected', event.data.rejectedAt, event.data.reason);
        return;
      case 'AdoptionRequestWithdrawn':
        await setRequest(tx, event.data.requestId, 'withdrawn', event.data.withdrawnAt);
        return;
      case 'AdoptionRequestClosed':
        await setRequest(tx, event.data.requestId, 'closed', event.data.closedAt, event.data.reason);
        return;
      default: {
        const _exhaustive: never = event;
        return;
      }
    }
  },
});

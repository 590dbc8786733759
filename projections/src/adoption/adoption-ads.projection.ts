import type { Knex } from 'knex';
import {
  adIdOfStream,
  ADOPTION_EVENT_TYPES,
  type AdoptionEvent,
  type PetDetails,
  type UserEvent,
} from '@pawhaven/contracts';
import { defineProjection, NO_NOTICES, type FoldedRow, type Notices } from '@pawhaven/platform';
import { addTo, removeFrom } from '../fold-index';

const DETAIL_COLUMNS: Record<keyof PetDetails, string> = {
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

const detailColumns = (d: Partial<PetDetails>) =>
  Object.fromEntries(Object.entries(d).map(([k, v]) => [DETAIL_COLUMNS[k as keyof PetDetails], v]));

const setRequest = (
  tx: Knex.Transaction,
  requestId: string,
  status: string,
  at: string,
  reason: string | null = null,
) => tx('adoption_requests').where({ id: requestId }).update({ status, responded_at: at, reason });

/**
 * Tells the realtime gateway whose adoption lists changed (`adoptions-changed`, pushed as `adoptionsChanged`: "read
 * your adoption lists again", no data). Only people who see the change hear of it: an ad's owner (their ads with
 * the requests on them) and the requesters concerned (their history shows their request and the ad's pet).
 */
function adoptionsChanged(notices: Notices, userIds: Iterable<string | null | undefined>) {
  for (const userId of new Set(userIds)) if (userId) notices.push({ kind: 'adoptions-changed', userId });
}

/**
 * The people who see a change of ad `adId`: its owner and the requesters of its requests (with `requestId`, of
 * that one only). Replays hand no notices, and are not slowed by the look-up.
 */
async function concerned(tx: Knex.Transaction, notices: Notices, adId: string, requestId?: string) {
  if (notices === NO_NOTICES) return;
  const { rows } = await tx.raw<{ rows: { user_id: string }[] }>(
    `SELECT owner_id AS user_id FROM adoption_ads WHERE id = ?
     UNION SELECT requester_id FROM adoption_requests WHERE ad_id = ? AND (?::text IS NULL OR id = ?)`,
    [adId, adId, requestId ?? null, requestId ?? null],
  );
  adoptionsChanged(
    notices,
    rows.map((r) => r.user_id),
  );
}

/**
 * A deleted user's ads (with every request on them) and the requests they sent leave the read model; the ads they
 * had requested count one request fewer each (`request_count` is the number of request rows). The requesters of
 * their ads and the owners of the ads they requested are told.
 */
async function forgetUser(tx: Knex.Transaction, notices: Notices, userId: string) {
  const requesters = await tx.raw<{ rows: { user_id: string }[] }>(
    `WITH ads AS (DELETE FROM adoption_ads WHERE owner_id = ? RETURNING id)
     DELETE FROM adoption_requests WHERE ad_id IN (SELECT id FROM ads) RETURNING requester_id AS user_id`,
    [userId],
  );
  const owners = await tx.raw<{ rows: { user_id: string }[] }>(
    `WITH r AS (DELETE FROM adoption_requests WHERE requester_id = ? RETURNING ad_id),
     n AS (SELECT ad_id, count(*)::int AS n FROM r GROUP BY ad_id)
     UPDATE adoption_ads a SET request_count = a.request_count - n.n FROM n WHERE a.id = n.ad_id
     RETURNING a.owner_id AS user_id`,
    [userId],
  );
  adoptionsChanged(
    notices,
    [...requesters.rows, ...owners.rows].map((r) => r.user_id),
  );
}

/** One adoption event on ad `adId`: the rows it changes, and who is told (`concerned`). */
async function applyToAd(tx: Knex.Transaction, event: AdoptionEvent, adId: string, notices: Notices) {
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
      adoptionsChanged(notices, [event.data.ownerId]);
      return;
    case 'AdoptionAdUpdated':
      await ad().update({ ...detailColumns(event.data.changes), updated_at: event.data.updatedAt });
      await concerned(tx, notices, adId);
      return;
    case 'AdoptionAdDeleted':
      await ad().update({
        status: 'deleted',
        deleted_at: event.data.deletedAt,
        updated_at: event.data.deletedAt,
      });
      await concerned(tx, notices, adId);
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
      await concerned(tx, notices, adId, d.requestId);
      return;
    }
    case 'AdoptionRequestDeleted': {
      const removed = await tx('adoption_requests')
        .where({ id: event.data.requestId })
        .delete()
        .returning(['ad_id', 'requester_id']);
      if (removed.length > 0) await ad().decrement('request_count', 1);
      // The row is gone: this finds the owner only; the requester comes from the deleted row.
      await concerned(tx, notices, adId, event.data.requestId);
      adoptionsChanged(
        notices,
        removed.map((r: { requester_id: string }) => r.requester_id),
      );
      return;
    }
    case 'AdoptionRequestAccepted':
      await setRequest(tx, event.data.requestId, 'accepted', event.data.acceptedAt);
      await concerned(tx, notices, adId, event.data.requestId);
      return;
    case 'PetAdopted':
      await ad().update({ status: 'adopted', updated_at: event.data.adoptedAt });
      await concerned(tx, notices, adId, event.data.requestId);
      return;
    case 'AdoptionRequestRejected':
      await setRequest(tx, event.data.requestId, 'rejected', event.data.rejectedAt, event.data.reason);
      await concerned(tx, notices, adId, event.data.requestId);
      return;
    case 'AdoptionRequestWithdrawn':
      await setRequest(tx, event.data.requestId, 'withdrawn', event.data.withdrawnAt);
      await concerned(tx, notices, adId, event.data.requestId);
      return;
    case 'AdoptionRequestClosed':
      await setRequest(tx, event.data.requestId, 'closed', event.data.closedAt, event.data.reason);
      await concerned(tx, notices, adId, event.data.requestId);
      return;
    default: {
      const _exhaustive: never = event;
      return;
    }
  }
}

type Handled = AdoptionEvent | Extract<UserEvent, { type: 'UserDeleted' }>;

/** An `adoption_ads` row in the fold: every column but the generated `search`. */
type AdRow = {
  id: string;
  owner_id: string;
  name: string;
  age: string;
  age_unit: string;
  pet_type: string;
  breed: string;
  gender: string | null;
  size: string | null;
  vaccinated: boolean | null;
  spayed_neutered: boolean | null;
  good_with_children: boolean | null;
  good_with_dogs: boolean | null;
  good_with_cats: boolean | null;
  description: string;
  location: string;
  image_url: string;
  status: string;
  request_count: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
};

type RequestRow = {
  id: string;
  ad_id: string;
  requester_id: string;
  name: string;
  email: string;
  phone: string;
  message: string;
  pet_history_image: string | null;
  status: string;
  reason: string | null;
  requested_at: string;
  responded_at: string | null;
};

/** `adoption_ads` and `adoption_requests`: the listing, an owner's ads with their requests, a requester's history. */
export const adoptionAdsProjection = defineProjection({
  name: 'adoption-ads',
  tables: ['adoption_ads', 'adoption_requests'],
  handles: [...ADOPTION_EVENT_TYPES, 'UserDeleted'],
  async apply(tx, recorded, notices) {
    const event = { type: recorded.type, data: recorded.data } as
      AdoptionEvent | Extract<UserEvent, { type: 'UserDeleted' }>;
    if (event.type === 'UserDeleted') {
      await forgetUser(tx, notices, event.data.userId);
      return;
    }
    const adId = adIdOfStream(recorded.streamId);
    await applyToAd(tx, event, adId, notices);
  },
  fold: () => {
    const ads = new Map<string, AdRow>();
    const requests = new Map<string, RequestRow>();
    const adsByOwner = new Map<string, Set<string>>();
    const requestsByAd = new Map<string, Set<string>>();
    const requestsByRequester = new Map<string, Set<string>>();

    const forgetRequest = (request: RequestRow) => {
      requests.delete(request.id);
      removeFrom(requestsByAd, request.ad_id, request.id);
      removeFrom(requestsByRequester, request.requester_id, request.id);
    };
    const respond = (requestId: string, status: string, at: string, reason: string | null = null) => {
      const request = requests.get(requestId);
      if (!request) return;
      request.status = status;
      request.responded_at = at;
      request.reason = reason;
    };
    /** As `forgetUser`: their ads with every request on them, then their requests (one fewer on each ad). */
    const forgetOwnerAndRequester = (userId: string) => {
      for (const adId of adsByOwner.get(userId) ?? []) {
        ads.delete(adId);
        for (const requestId of requestsByAd.get(adId) ?? []) {
          const request = requests.get(requestId)!;
          requests.delete(requestId);
          removeFrom(requestsByRequester, request.requester_id, requestId);
        }
        requestsByAd.delete(adId);
      }
      adsByOwner.delete(userId);
      for (const requestId of requestsByRequester.get(userId) ?? []) {
        const request = requests.get(requestId)!;
        requests.delete(requestId);
        removeFrom(requestsByAd, request.ad_id, requestId);
        const ad = ads.get(request.ad_id);
        if (ad) ad.request_count -= 1;
      }
      requestsByRequester.delete(userId);
    };

    return {
      apply(recorded) {
        const event = recorded as unknown as Handled;
        if (event.type === 'UserDeleted') {
          forgetOwnerAndRequester(event.data.userId);
          return;
        }
        const adId = adIdOfStream(recorded.streamId);
        switch (event.type) {
          case 'AdoptionAdPublished': {
            if (ads.has(adId)) return;
            const { details: d, ownerId, publishedAt } = event.data;
            // A detail the event lacks would be inserted as NULL (none of these columns has another default).
            ads.set(adId, {
              id: adId,
              owner_id: ownerId,
              name: d.name,
              age: d.age,
              age_unit: d.ageUnit,
              pet_type: d.petType,
              breed: d.breed,
              gender: d.gender ?? null,
              size: d.size ?? null,
              vaccinated: d.vaccinated ?? null,
              spayed_neutered: d.spayedNeutered ?? null,
              good_with_children: d.goodWithChildren ?? null,
              good_with_dogs: d.goodWithDogs ?? null,
              good_with_cats: d.goodWithCats ?? null,
              description: d.description,
              location: d.location,
              image_url: d.imageUrl,
              status: 'available',
              request_count: 0,
              created_at: publishedAt,
              updated_at: publishedAt,
              deleted_at: null,
            });
            addTo(adsByOwner, ownerId, adId);
            return;
          }
          case 'AdoptionAdUpdated': {
            const ad = ads.get(adId) as FoldedRow | undefined;
            if (!ad) return;
            const changes = event.data.changes;
            for (const key in changes) {
              if (Object.hasOwn(DETAIL_COLUMNS, key)) {
                ad[DETAIL_COLUMNS[key as keyof PetDetails]] = changes[key as keyof PetDetails];
              }
            }
            ad.updated_at = event.data.updatedAt;
            return;
          }
          case 'AdoptionAdDeleted': {
            const ad = ads.get(adId);
            if (!ad) return;
            ad.status = 'deleted';
            ad.deleted_at = event.data.deletedAt;
            ad.updated_at = event.data.deletedAt;
            return;
          }
          case 'AdoptionRequested': {
            const d = event.data;
            const ad = ads.get(adId);
            if (!ad || requests.has(d.requestId)) return;
            requests.set(d.requestId, {
              id: d.requestId,
              ad_id: adId,
              requester_id: d.requesterId,
              name: d.name,
              email: d.email,
              phone: d.phone,
              message: d.message,
              pet_history_image: d.petHistoryImage ?? null,
              status: 'pending',
              reason: null,
              requested_at: d.requestedAt,
              responded_at: null,
            });
            addTo(requestsByAd, adId, d.requestId);
            addTo(requestsByRequester, d.requesterId, d.requestId);
            ad.request_count += 1;
            return;
          }
          case 'AdoptionRequestDeleted': {
            const request = requests.get(event.data.requestId);
            if (!request) return;
            forgetRequest(request);
            // Like `apply`: the count of the ad whose stream recorded the deletion.
            const ad = ads.get(adId);
            if (ad) ad.request_count -= 1;
            return;
          }
          case 'AdoptionRequestAccepted':
            respond(event.data.requestId, 'accepted', event.data.acceptedAt);
            return;
          case 'PetAdopted': {
            const ad = ads.get(adId);
            if (!ad) return;
            ad.status = 'adopted';
            ad.updated_at = event.data.adoptedAt;
            return;
          }
          case 'AdoptionRequestRejected':
            respond(event.data.requestId, 'rejected', event.data.rejectedAt, event.data.reason);
            return;
          case 'AdoptionRequestWithdrawn':
            respond(event.data.requestId, 'withdrawn', event.data.withdrawnAt);
            return;
          case 'AdoptionRequestClosed':
            respond(event.data.requestId, 'closed', event.data.closedAt, event.data.reason);
            return;
          default: {
            const _exhaustive: never = event;
            return;
          }
        }
      },
      rows: () => ({ adoption_ads: ads.values(), adoption_requests: requests.values() }),
    };
  },
});

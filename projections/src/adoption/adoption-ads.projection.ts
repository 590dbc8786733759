import {
  adIdOfStream,
  ADOPTION_EVENT_TYPES,
  type AdoptionEvent,
  type AdStatus,
  type PetType,
  type RequestStatus,
  type PetDetails,
  type UserEvent,
} from '@pawhaven/contracts';
import { defineReadModel, NO_NOTICES, type Notices, type Row } from '@pawhaven/platform';

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

/**
 * Tells the realtime gateway whose adoption lists changed (`adoptions-changed`, pushed as `adoptionsChanged`: "read
 * your adoption lists again", no data). Only people who see the change hear of it: an ad's owner (their ads with
 * the requests on them) and the requesters concerned (their history shows their request and the ad's pet).
 */
function adoptionsChanged(notices: Notices, userIds: Iterable<string | null | undefined>) {
  for (const userId of new Set(userIds)) if (userId) notices.push({ kind: 'adoptions-changed', userId });
}

type Handled = AdoptionEvent | Extract<UserEvent, { type: 'UserDeleted' }>;

/**
 * An `adoption_ads` row: every column but the generated `search`; readers import it. `Time` is how a timestamp
 * reads: ISO text in the model's `evolve`, a `Date` from the `pg` driver.
 */
export type AdRow<Time = string> = {
  id: string;
  owner_id: string;
  name: string;
  age: string;
  age_unit: string;
  pet_type: PetType;
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
  status: AdStatus;
  request_count: number;
  created_at: Time;
  updated_at: Time;
  deleted_at: Time | null;
};

/** An `adoption_requests` row, every column included; readers import it (`Time` as for `AdRow`). */
export type RequestRow<Time = string> = {
  id: string;
  ad_id: string;
  requester_id: string;
  name: string;
  email: string;
  phone: string;
  message: string;
  pet_history_image: string | null;
  status: RequestStatus;
  reason: string | null;
  requested_at: Time;
  responded_at: Time | null;
};

/**
 * An `adoption_listing_counts` row: how many listed (not deleted) ads of a listing filter's kind (`bucket`) an owner
 * has; `owner_id` '' counts everyone's (and, in bucket 'changes', how often the listed ads changed). The listing's total comes from here when it has no city or text search, so
 * a page does not count every ad: everyone's minus the viewer's own (a viewer never sees their own ads).
 */
type ListingCountRow = { owner_id: string; bucket: ListingBucket | 'changes'; n: number };

/** The listing filters' kinds: Dog, Cat, and other (every other pet type). */
export type ListingBucket = 'dog' | 'cat' | 'other';
export const listingBucket = (petType: string): ListingBucket =>
  petType === 'Dog' ? 'dog' : petType === 'Cat' ? 'cat' : 'other';

/** `adoption_ads` and `adoption_requests`: the listing, an owner's ads with their requests, a requester's history. */
export const adoptionAdsProjection = defineReadModel<{
  adoption_ads: AdRow;
  adoption_requests: RequestRow;
  adoption_listing_counts: ListingCountRow;
}>({
  name: 'adoption-ads',
  tables: {
    adoption_ads: { key: ['id'], lookups: ['owner_id'], generated: ['search'] },
    adoption_requests: { key: ['id'], lookups: ['ad_id', 'requester_id'] },
    adoption_listing_counts: { key: ['owner_id', 'bucket'] },
  },
  handles: [...ADOPTION_EVENT_TYPES, 'UserDeleted'],
  evolve(
    { adoption_ads: ads, adoption_requests: requests, adoption_listing_counts: counts },
    recorded,
    notices,
  ) {
    /**
     * A listed ad of this owner and kind more (+1) or fewer (-1), in the owner's count and everyone's. Everyone's
     * 'changes' row counts every such change: a total the query side counted (with a city or a text search) holds
     * while it is unchanged.
     */
    const count = (ad: Pick<AdRow, 'owner_id' | 'pet_type' | 'deleted_at'>, change: 1 | -1) => {
      if (ad.deleted_at !== null) return;
      counts.put({ owner_id: '', bucket: 'changes', n: (counts.get('', 'changes')?.n ?? 0) + 1 });
      const bucket = listingBucket(ad.pet_type);
      for (const owner_id of ['', ad.owner_id]) {
        const n = (counts.get(owner_id, bucket)?.n ?? 0) + change;
        if (n > 0) counts.put({ owner_id, bucket, n });
        else counts.delete(owner_id, bucket);
      }
    };
    /**
     * The people who see a change of ad `adId`: its owner and the requesters of its requests (with `requestId`, of
     * that one only). Replays hand no notices, and are not slowed by the look-up.
     */
    const concerned = (adId: string, requestId?: string) => {
      if (notices === NO_NOTICES) return;
      const requesters = requestId
        ? [requests.get(requestId)].filter((r) => r?.ad_id === adId)
        : requests.find('ad_id', adId);
      adoptionsChanged(notices, [ads.get(adId)?.owner_id, ...requesters.map((r) => r!.requester_id)]);
    };
    const respond = (
      adId: string,
      requestId: string,
      status: RequestStatus,
      at: string,
      reason: string | null = null,
    ) => {
      const request = requests.get(requestId);
      if (request) {
        request.status = status;
        request.responded_at = at;
        request.reason = reason;
        requests.put(request);
      }
      concerned(adId, requestId);
    };

    const event = recorded as unknown as Handled;
    if (event.type === 'UserDeleted') {
      // Their ads leave with every request on them, then the requests they sent (the ads they had requested count
      // one request fewer each: `request_count` is the number of request rows). The requesters of their ads and
      // the owners of the ads they requested are told.
      const userId = event.data.userId;
      const told: string[] = [];
      for (const ad of ads.find('owner_id', userId)) {
        count(ad, -1);
        ads.delete(ad.id);
        for (const request of requests.find('ad_id', ad.id)) {
          requests.delete(request.id);
          told.push(request.requester_id);
        }
      }
      for (const request of requests.find('requester_id', userId)) {
        requests.delete(request.id);
        const ad = ads.get(request.ad_id);
        if (!ad) continue;
        ad.request_count--;
        ads.put(ad);
        told.push(ad.owner_id);
      }
      adoptionsChanged(notices, told);
      return;
    }
    const adId = adIdOfStream(recorded.streamId);
    const ad = ads.get(adId);
    switch (event.type) {
      case 'AdoptionAdPublished': {
        const { details: d, ownerId, publishedAt } = event.data;
        // A detail the event lacks is NULL (none of these columns has another default).
        if (!ad) {
          const row: AdRow = {
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
          };
          ads.put(row);
          count(row, 1);
        }
        adoptionsChanged(notices, [ownerId]);
        return;
      }
      case 'AdoptionAdUpdated': {
        if (ad) {
          count(ad, -1); // its kind may change
          ad.updated_at = event.data.updatedAt;
          const columns: Row = ad;
          const changes = event.data.changes;
          for (const key in changes)
            if (Object.hasOwn(DETAIL_COLUMNS, key))
              columns[DETAIL_COLUMNS[key as keyof PetDetails]] = changes[key as keyof PetDetails];
          ads.put(ad);
          count(ad, 1);
        }
        concerned(adId);
        return;
      }
      case 'AdoptionAdDeleted':
        if (ad) {
          count(ad, -1);
          ad.status = 'deleted';
          ad.deleted_at = event.data.deletedAt;
          ad.updated_at = event.data.deletedAt;
          ads.put(ad);
        }
        concerned(adId);
        return;
      case 'AdoptionRequested': {
        const d = event.data;
        // Asked with the ad (ask first for every row the event names): one load on a live batch.
        const known = requests.get(d.requestId);
        // Only on an ad the model has: one whose owner was deleted is gone, and so is anything sent to it.
        if (!ad) return;
        if (!known) {
          requests.put({
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
          ad.request_count++;
          ads.put(ad);
        }
        concerned(adId, d.requestId);
        return;
      }
      case 'AdoptionRequestDeleted': {
        const request = requests.get(event.data.requestId);
        if (request) {
          requests.delete(request.id);
          // The count of the ad whose stream recorded the deletion.
          if (ad) {
            ad.request_count--;
            ads.put(ad);
          }
        }
        // The row is gone: this finds the owner only; the requester comes from the deleted row.
        concerned(adId, event.data.requestId);
        adoptionsChanged(notices, [request?.requester_id]);
        return;
      }
      case 'AdoptionRequestAccepted':
        respond(adId, event.data.requestId, 'accepted', event.data.acceptedAt);
        return;
      case 'PetAdopted':
        if (ad) {
          ad.status = 'adopted';
          ad.updated_at = event.data.adoptedAt;
          ads.put(ad);
        }
        concerned(adId, event.data.requestId);
        return;
      case 'AdoptionRequestRejected':
        respond(adId, event.data.requestId, 'rejected', event.data.rejectedAt, event.data.reason);
        return;
      case 'AdoptionRequestWithdrawn':
        respond(adId, event.data.requestId, 'withdrawn', event.data.withdrawnAt);
        return;
      case 'AdoptionRequestClosed':
        respond(adId, event.data.requestId, 'closed', event.data.closedAt, event.data.reason);
        return;
      default: {
        const _exhaustive: never = event;
        return;
      }
    }
  },
});

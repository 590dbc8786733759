import type { AgeUnitValue, GenderValue, PetTypeValue, SizeValue } from './adoption-values';

/** Details of a pet as an ad carries them. */
export type PetDetails = {
  name: string;
  age: string;
  ageUnit: AgeUnitValue;
  petType: PetTypeValue;
  breed: string;
  gender: GenderValue | null;
  size: SizeValue | null;
  vaccinated: boolean | null;
  spayedNeutered: boolean | null;
  goodWithChildren: boolean | null;
  goodWithDogs: boolean | null;
  goodWithCats: boolean | null;
  description: string;
  location: string;
  imageUrl: string;
};

/**
 * Events of an adoption ad (stream `adoption-{adId}`), version 1. The ad's requests live in the same stream, so
 * accepting one request and rejecting the others is one atomic append: two owners' tabs cannot both accept.
 * Who did it is in the event metadata (actorId); when is in the data and the record.
 */
export type AdoptionEvent =
  | {
      type: 'AdoptionAdPublished';
      data: { adId: string; ownerId: string; details: PetDetails; publishedAt: string };
    }
  | { type: 'AdoptionAdUpdated'; data: { changes: Partial<PetDetails>; updatedAt: string } }
  | { type: 'AdoptionAdDeleted'; data: { deletedAt: string; byAdmin: boolean } }
  | {
      type: 'AdoptionRequested';
      data: {
        requestId: string;
        requesterId: string;
        name: string;
        email: string;
        phone: string;
        message: string;
        petHistoryImage: string | null;
        requestedAt: string;
        /**
         * The ad's owner, carried so that the read models need no lookup before they know whom to tell (absent
         * from requests recorded before it was).
         */
        ownerId?: string;
      };
    }
  | { type: 'AdoptionRequestAccepted'; data: { requestId: string; acceptedAt: string } }
  | { type: 'PetAdopted'; data: { requestId: string; adopterId: string; adoptedAt: string } }
  | { type: 'AdoptionRequestRejected'; data: { requestId: string; reason: string; rejectedAt: string } }
  | { type: 'AdoptionRequestWithdrawn'; data: { requestId: string; withdrawnAt: string } }
  | { type: 'AdoptionRequestClosed'; data: { requestId: string; reason: string; closedAt: string } }
  /**
   * An administrator removed a request (moderation): it leaves every list, count and notification; the audit keeps
   * the fact. `requesterId` is carried so the per-user counts need no lookup.
   */
  | {
      type: 'AdoptionRequestDeleted';
      data: { requestId: string; requesterId: string; deletedBy: string; deletedAt: string };
    };

export type AdoptionEventType = AdoptionEvent['type'];

/** Every adoption event type, for projections that follow all of them. */
export const ADOPTION_EVENT_TYPES = [
  'AdoptionAdPublished',
  'AdoptionAdUpdated',
  'AdoptionAdDeleted',
  'AdoptionRequested',
  'AdoptionRequestAccepted',
  'PetAdopted',
  'AdoptionRequestRejected',
  'AdoptionRequestWithdrawn',
  'AdoptionRequestClosed',
  'AdoptionRequestDeleted',
] as const satisfies readonly AdoptionEventType[];

export const adoptionStream = (adId: string) => `adoption-${adId}`;
export const adIdOfStream = (streamId: string) => streamId.slice('adoption-'.length);

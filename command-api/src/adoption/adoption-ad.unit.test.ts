import { describe, it } from 'vitest';
import { ADOPTION_MESSAGES as M, type AdoptionEvent, type PetDetails } from '@pawhaven/contracts';
import { deciderSpec } from '@pawhaven/platform/testing';
import { adoptionAdDecider } from './adoption-ad';

const given = deciderSpec(adoptionAdDecider);
const now = new Date('2026-11-21T10:00:00.000Z');
const at = now.toISOString();

const details: PetDetails = {
  name: 'Moti',
  age: '2',
  ageUnit: 'yrs',
  petType: 'Dog',
  breed: 'Mixed',
  gender: 'Male',
  size: 'Medium',
  vaccinated: true,
  spayedNeutered: null,
  goodWithChildren: true,
  goodWithDogs: null,
  goodWithCats: false,
  description: 'Friendly and house-trained.',
  location: 'Lahore',
  imageUrl: '/api/images/aaaaaaaaaaaaaaaaaaaaaaaa',
};

const published: AdoptionEvent = {
  type: 'AdoptionAdPublished',
  data: { adId: 'ad1', ownerId: 'owner', details, publishedAt: at },
};
const requested = (requestId: string, requesterId: string): AdoptionEvent => ({
  type: 'AdoptionRequested',
  data: {
    requestId,
    requesterId,
    name: 'B',
    email: 'b@gmail.com',
    phone: '03001234567',
    message: 'Please',
    petHistoryImage: null,
    requestedAt: at,
    ownerId: 'owner',
  },
});
const accepted: AdoptionEvent[] = [
  { type: 'AdoptionRequestAccepted', data: { requestId: 'r1', acceptedAt: at } },
  { type: 'PetAdopted', data: { requestId: 'r1', adopterId: 'bob', adoptedAt: at } },
];
const deleted: AdoptionEvent = { type: 'AdoptionAdDeleted', data: { deletedAt: at, byAdmin: false } };

const request = (requestId: string, requesterId: string) => ({
  type: 'RequestAdoption' as const,
  data: {
    requestId,
    requesterId,
    name: 'B',
    email: 'b@gmail.com',
    phone: '03001234567',
    message: 'Please',
    petHistoryImage: null,
    now,
  },
});
const accept = (requestId: string, actorId = 'owner') => ({
  type: 'AcceptRequest' as const,
  data: { requestId, actorId, now },
});
const reject = (requestId: string, actorId = 'owner') => ({
  type: 'RejectRequest' as const,
  data: { requestId, actorId, now },
});
const withdraw = (requestId: string, actorId: string) => ({
  type: 'WithdrawRequest' as const,
  data: { requestId, actorId, now },
});

describe('publishing and editing an ad', () => {
  it('publishes an available ad', () =>
    given()
      .when({ type: 'PublishAd', data: { adId: 'ad1', ownerId: 'owner', details, now } })
      .then([published]));

  it('refuses to publish the same ad twice', () =>
    given(published)
      .when({ type: 'PublishAd', data: { adId: 'ad1', ownerId: 'owner', details, now } })
      .thenRefuses(409, 'This adoption ad exists already'));

  it('the owner updates only what changed', () =>
    given(published)
      .when({
        type: 'UpdateAd',
        data: { actorId: 'owner', changes: { name: 'Moti', description: 'Loves walks.' }, now },
      })
      .then([
        { type: 'AdoptionAdUpdated', data: { changes: { description: 'Loves walks.' }, updatedAt: at } },
      ]));

  it('an update that changes nothing records nothing', () =>
    given(published)
      .when({ type: 'UpdateAd', data: { actorId: 'owner', changes: { name: 'Moti' }, now } })
      .thenNothing());

  it('nobody but the owner may update', () =>
    given(published)
      .when({ type: 'UpdateAd', data: { actorId: 'bob', changes: { name: 'X' }, now } })
      .thenRefuses(403, M.notOwner));

  it('a deleted ad cannot be updated', () =>
    given(published, deleted)
      .when({ type: 'UpdateAd', data: { actorId: 'owner', changes: { name: 'X' }, now } })
      .thenRefuses(404, M.adNotFound));

  it('an unknown ad cannot be updated', () =>
    given()
      .when({ type: 'UpdateAd', data: { actorId: 'owner', changes: { name: 'X' }, now } })
      .thenRefuses(404, M.adNotFound));
});

describe('deleting an ad', () => {
  it('the owner deletes it and its pending requests close with it', () =>
    given(
      published,
      requested('r1', 'bob'),
      requested('r2', 'cara'),
      { type: 'AdoptionRequestWithdrawn', data: { requestId: 'r2', withdrawnAt: at } },
      requested('r3', 'dan'),
    )
      .when({ type: 'DeleteAd', data: { actorId: 'owner', isAdmin: false, now } })
      .then([
        deleted,
        { type: 'AdoptionRequestClosed', data: { requestId: 'r1', reason: M.adDeleted, closedAt: at } },
        { type: 'AdoptionRequestClosed', data: { requestId: 'r3', reason: M.adDeleted, closedAt: at } },
      ]));

  it('an admin may delete any ad', () =>
    given(published)
      .when({ type: 'DeleteAd', data: { actorId: 'admin', isAdmin: true, now } })
      .then([{ type: 'AdoptionAdDeleted', data: { deletedAt: at, byAdmin: true } }]));

  it('another user may not delete', () =>
    given(published)
      .when({ type: 'DeleteAd', data: { actorId: 'bob', isAdmin: false, now } })
      .thenRefuses(403, M.notOwner));

  it('a deleted ad cannot be deleted again', () =>
    given(published, deleted)
      .when({ type: 'DeleteAd', data: { actorId: 'owner', isAdmin: false, now } })
      .thenRefuses(404, M.adNotFound));
});

describe('requesting adoption', () => {
  it('anyone but the owner may request an available pet; the ad stays available', () =>
    given(published)
      .when(request('r1', 'bob'))
      .then([requested('r1', 'bob')]));

  it('the owner may not request their own pet', () =>
    given(published).when(request('r1', 'owner')).thenRefuses(403, M.ownAd));

  it('one open request per user per ad', () =>
    given(published, requested('r1', 'bob')).when(request('r2', 'bob')).thenRefuses(409, M.alreadyRequested));

  it('after a rejection the same user may ask again', () =>
    given(published, requested('r1', 'bob'), {
      type: 'AdoptionRequestRejected',
      data: { requestId: 'r1', reason: M.declinedByOwner, rejectedAt: at },
    })
      .when(request('r2', 'bob'))
      .then([requested('r2', 'bob')]));

  it('an adopted pet takes no more requests', () =>
    given(published, requested('r1', 'bob'), ...accepted)
      .when(request('r2', 'cara'))
      .thenRefuses(409, M.notAvailable));

  it('a deleted ad takes no requests', () =>
    given(published, deleted).when(request('r1', 'bob')).thenRefuses(404, M.adNotFound));
});

describe('accepting and rejecting', () => {
  it('accepting adopts the pet and rejects every other pending request', () =>
    given(published, requested('r1', 'bob'), requested('r2', 'cara'), requested('r3', 'dan'), {
      type: 'AdoptionRequestWithdrawn',
      data: { requestId: 'r3', withdrawnAt: at },
    })
      .when(accept('r1'))
      .then([
        ...accepted,
        {
          type: 'AdoptionRequestRejected',
          data: { requestId: 'r2', reason: M.anotherAccepted, rejectedAt: at },
        },
      ]));

  it('only the owner may accept', () =>
    given(published, requested('r1', 'bob')).when(accept('r1', 'bob')).thenRefuses(403, M.notOwner));

  it('an unknown request cannot be accepted', () =>
    given(published).when(accept('nope')).thenRefuses(404, M.requestNotFound));

  it('a second accept after the pet is adopted is refused', () =>
    given(published, requested('r1', 'bob'), requested('r2', 'cara'), ...accepted, {
      type: 'AdoptionRequestRejected',
      data: { requestId: 'r2', reason: M.anotherAccepted, rejectedAt: at },
    })
      .when(accept('r2'))
      .thenRefuses(409, M.requestNotPending));

  it('rejecting one request leaves the ad available', () =>
    given(published, requested('r1', 'bob'))
      .when(reject('r1'))
      .then([
        {
          type: 'AdoptionRequestRejected',
          data: { requestId: 'r1', reason: M.declinedByOwner, rejectedAt: at },
        },
      ]));

  it('only the owner may reject', () =>
    given(published, requested('r1', 'bob')).when(reject('r1', 'cara')).thenRefuses(403, M.notOwner));

  it('an answered request cannot be rejected', () =>
    given(published, requested('r1', 'bob'), {
      type: 'AdoptionRequestRejected',
      data: { requestId: 'r1', reason: M.declinedByOwner, rejectedAt: at },
    })
      .when(reject('r1'))
      .thenRefuses(409, M.requestNotPending));

  it('requests of a deleted ad cannot be answered', () =>
    given(published, requested('r1', 'bob'), deleted).when(accept('r1')).thenRefuses(404, M.adNotFound));
});

describe('withdrawing', () => {
  it('the requester withdraws their pending request', () =>
    given(published, requested('r1', 'bob'))
      .when(withdraw('r1', 'bob'))
      .then([{ type: 'AdoptionRequestWithdrawn', data: { requestId: 'r1', withdrawnAt: at } }]));

  it('nobody else may withdraw it', () =>
    given(published, requested('r1', 'bob')).when(withdraw('r1', 'owner')).thenRefuses(403, M.notRequester));

  it('an accepted request cannot be withdrawn', () =>
    given(published, requested('r1', 'bob'), ...accepted)
      .when(withdraw('r1', 'bob'))
      .thenRefuses(409, M.requestNotPending));

  it('an unknown request cannot be withdrawn', () =>
    given(published).when(withdraw('r9', 'bob')).thenRefuses(404, M.requestNotFound));
});

describe('an administrator deleting a request', () => {
  const del = (requestId: string, isAdmin = true, actorId = 'admin') => ({
    type: 'DeleteRequest' as const,
    data: { requestId, actorId, isAdmin, now },
  });
  const requestDeleted = (requestId: string, requesterId: string): AdoptionEvent => ({
    type: 'AdoptionRequestDeleted',
    data: { requestId, requesterId, deletedBy: 'admin', deletedAt: at },
  });

  it('removes a pending request, naming its requester and the admin', () =>
    given(published, requested('r1', 'bob'))
      .when(del('r1'))
      .then([requestDeleted('r1', 'bob')]));

  it('removes an answered request too, also after the pet was adopted', () =>
    given(published, requested('r1', 'bob'), ...accepted)
      .when(del('r1'))
      .then([requestDeleted('r1', 'bob')]));

  it('a retry finds nothing left to do and records nothing', () =>
    given(published, requested('r1', 'bob'), requestDeleted('r1', 'bob')).when(del('r1')).thenNothing());

  it('an unknown request is 404', () =>
    given(published).when(del('nope')).thenRefuses(404, M.requestNotFound));

  it('nobody but an administrator may, not even the ad owner', () =>
    given(published, requested('r1', 'bob'))
      .when(del('r1', false, 'owner'))
      .thenRefuses(403, 'Only an administrator can delete an adoption request'));

  it('a deleted request can no longer be accepted, rejected or withdrawn', () => {
    given(published, requested('r1', 'bob'), requestDeleted('r1', 'bob'))
      .when(accept('r1'))
      .thenRefuses(404, M.requestNotFound);
    given(published, requested('r1', 'bob'), requestDeleted('r1', 'bob'))
      .when(reject('r1'))
      .thenRefuses(404, M.requestNotFound);
    given(published, requested('r1', 'bob'), requestDeleted('r1', 'bob'))
      .when(withdraw('r1', 'bob'))
      .thenRefuses(404, M.requestNotFound);
  });

  it('the requester may ask again, and deleting the ad no longer closes the removed request', () => {
    given(published, requested('r1', 'bob'), requestDeleted('r1', 'bob'))
      .when(request('r2', 'bob'))
      .then([requested('r2', 'bob')]);
    given(published, requested('r1', 'bob'), requestDeleted('r1', 'bob'))
      .when({ type: 'DeleteAd', data: { actorId: 'owner', isAdmin: false, now } })
      .then([deleted]);
  });
});

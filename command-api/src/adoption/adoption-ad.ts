import {
  ADOPTION_MESSAGES,
  type AdoptionEvent,
  type PetDetails,
  type RequestStatus,
} from '@pawhaven/contracts';
import { badRequest, conflict, forbidden, notFound } from '@pawhaven/platform';

/**
 * The adoption ad aggregate, stream `adoption-{adId}`, with its requests inside: every rule that spans an ad and
 * its requests (one accepted, the rest rejected) is decided against one stream revision.
 */

export type { AdoptionEvent } from '@pawhaven/contracts';

export type AdoptionCommand =
  | { type: 'PublishAd'; data: { adId: string; ownerId: string; details: PetDetails; now: Date } }
  | { type: 'UpdateAd'; data: { actorId: string; changes: Partial<PetDetails>; now: Date } }
  | { type: 'DeleteAd'; data: { actorId: string; isAdmin: boolean; now: Date } }
  | {
      type: 'RequestAdoption';
      /** What the request records (the event's data but its time), and now. */
      data: Omit<Extract<AdoptionEvent, { type: 'AdoptionRequested' }>['data'], 'requestedAt' | 'ownerId'> & {
        now: Date;
      };
    }
  | { type: 'AcceptRequest'; data: { requestId: string; actorId: string; now: Date } }
  | { type: 'RejectRequest'; data: { requestId: string; actorId: string; now: Date } }
  | { type: 'WithdrawRequest'; data: { requestId: string; actorId: string; now: Date } }
  /** Moderation: an administrator removes a request, whatever its status (admin/routes.ts). */
  | { type: 'DeleteRequest'; data: { requestId: string; actorId: string; isAdmin: boolean; now: Date } };

/** `deleted`: removed by an administrator; it no longer counts as the requester's open request. */
type RequestState = { requesterId: string; status: RequestStatus; deleted?: boolean };

type AdoptionAdState = {
  status: 'none' | 'available' | 'adopted' | 'deleted';
  adId: string;
  ownerId: string;
  details: PetDetails | null;
  requests: Record<string, RequestState>;
};

const initialAdoptionAdState = (): AdoptionAdState => ({
  status: 'none',
  adId: '',
  ownerId: '',
  details: null,
  requests: {},
});

const setRequest = (s: AdoptionAdState, requestId: string, status: RequestStatus): AdoptionAdState => {
  const r = s.requests[requestId];
  return r ? { ...s, requests: { ...s.requests, [requestId]: { ...r, status } } } : s;
};

function evolveAdoptionAd(state: AdoptionAdState, event: AdoptionEvent): AdoptionAdState {
  switch (event.type) {
    case 'AdoptionAdPublished':
      return {
        ...state,
        status: 'available',
        adId: event.data.adId,
        ownerId: event.data.ownerId,
        details: event.data.details,
      };
    case 'AdoptionAdUpdated':
      return state.details ? { ...state, details: { ...state.details, ...event.data.changes } } : state;
    case 'AdoptionAdDeleted':
      return { ...state, status: 'deleted' };
    case 'AdoptionRequested':
      return {
        ...state,
        requests: {
          ...state.requests,
          [event.data.requestId]: { requesterId: event.data.requesterId, status: 'pending' },
        },
      };
    case 'AdoptionRequestAccepted':
      return setRequest(state, event.data.requestId, 'accepted');
    case 'PetAdopted':
      return { ...state, status: 'adopted' };
    case 'AdoptionRequestRejected':
      return setRequest(state, event.data.requestId, 'rejected');
    case 'AdoptionRequestWithdrawn':
      return setRequest(state, event.data.requestId, 'withdrawn');
    case 'AdoptionRequestClosed':
      return setRequest(state, event.data.requestId, 'closed');
    case 'AdoptionRequestDeleted': {
      const r = state.requests[event.data.requestId];
      return r
        ? { ...state, requests: { ...state.requests, [event.data.requestId]: { ...r, deleted: true } } }
        : state;
    }
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

function decideAdoptionAd(command: AdoptionCommand, state: AdoptionAdState): AdoptionEvent[] {
  const at = command.data.now.toISOString();
  const existing = () => {
    if (state.status === 'none' || state.status === 'deleted') throw notFound(ADOPTION_MESSAGES.adNotFound);
  };
  const ownerOnly = (actorId: string) => {
    if (actorId !== state.ownerId) throw forbidden(ADOPTION_MESSAGES.notOwner);
  };
  const pendingRequest = (requestId: string) => {
    const r = state.requests[requestId];
    if (!r || r.deleted) throw notFound(ADOPTION_MESSAGES.requestNotFound);
    if (r.status !== 'pending') throw conflict(ADOPTION_MESSAGES.requestNotPending);
    return r;
  };
  const pendingIds = (except?: string) =>
    Object.entries(state.requests)
      .filter(([id, r]) => r.status === 'pending' && !r.deleted && id !== except)
      .map(([id]) => id);

  switch (command.type) {
    case 'PublishAd': {
      if (state.status !== 'none') throw conflict('This adoption ad exists already');
      const { adId, ownerId, details } = command.data;
      return [{ type: 'AdoptionAdPublished', data: { adId, ownerId, details, publishedAt: at } }];
    }
    case 'UpdateAd': {
      existing();
      ownerOnly(command.data.actorId);
      const changes = Object.fromEntries(
        Object.entries(command.data.changes).filter(
          ([k, v]) => v !== undefined && state.details?.[k as keyof PetDetails] !== v,
        ),
      ) as Partial<PetDetails>;
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'AdoptionAdUpdated', data: { changes, updatedAt: at } }];
    }
    case 'DeleteAd': {
      existing();
      if (!command.data.isAdmin) ownerOnly(command.data.actorId);
      // The ad's open requests close with it, each as its own audited event.
      return [
        {
          type: 'AdoptionAdDeleted',
          data: { deletedAt: at, byAdmin: command.data.isAdmin && command.data.actorId !== state.ownerId },
        },
        ...pendingIds().map((requestId): AdoptionEvent => ({
          type: 'AdoptionRequestClosed',
          data: { requestId, reason: ADOPTION_MESSAGES.adDeleted, closedAt: at },
        })),
      ];
    }
    case 'RequestAdoption': {
      existing();
      const d = command.data;
      if (d.requesterId === state.ownerId) throw forbidden(ADOPTION_MESSAGES.ownAd);
      if (state.status !== 'available') throw conflict(ADOPTION_MESSAGES.notAvailable);
      if (
        Object.values(state.requests).some(
          (r) => r.requesterId === d.requesterId && r.status === 'pending' && !r.deleted,
        )
      )
        throw conflict(ADOPTION_MESSAGES.alreadyRequested);
      if (state.requests[d.requestId]) throw badRequest('This request exists already');
      return [
        {
          type: 'AdoptionRequested',
          data: {
            requestId: d.requestId,
            requesterId: d.requesterId,
            name: d.name,
            email: d.email,
            phone: d.phone,
            message: d.message,
            petHistoryImage: d.petHistoryImage,
            requestedAt: at,
            ownerId: state.ownerId,
          },
        },
      ];
    }
    case 'AcceptRequest': {
      existing();
      ownerOnly(command.data.actorId);
      const { requestId } = command.data;
      const request = pendingRequest(requestId);
      if (state.status !== 'available') throw conflict(ADOPTION_MESSAGES.notAvailable);
      return [
        { type: 'AdoptionRequestAccepted', data: { requestId, acceptedAt: at } },
        { type: 'PetAdopted', data: { requestId, adopterId: request.requesterId, adoptedAt: at } },
        ...pendingIds(requestId).map((other): AdoptionEvent => ({
          type: 'AdoptionRequestRejected',
          data: { requestId: other, reason: ADOPTION_MESSAGES.anotherAccepted, rejectedAt: at },
        })),
      ];
    }
    case 'RejectRequest': {
      existing();
      ownerOnly(command.data.actorId);
      const { requestId } = command.data;
      pendingRequest(requestId);
      if (state.status !== 'available') throw conflict(ADOPTION_MESSAGES.notAvailable);
      return [
        {
          type: 'AdoptionRequestRejected',
          data: { requestId, reason: ADOPTION_MESSAGES.declinedByOwner, rejectedAt: at },
        },
      ];
    }
    case 'WithdrawRequest': {
      existing();
      const { requestId, actorId } = command.data;
      const r = state.requests[requestId];
      if (!r || r.deleted) throw notFound(ADOPTION_MESSAGES.requestNotFound);
      if (r.requesterId !== actorId) throw forbidden(ADOPTION_MESSAGES.notRequester);
      pendingRequest(requestId);
      return [{ type: 'AdoptionRequestWithdrawn', data: { requestId, withdrawnAt: at } }];
    }
    case 'DeleteRequest': {
      const { requestId, actorId, isAdmin } = command.data;
      const r = state.requests[requestId];
      if (state.status === 'none' || !r) throw notFound(ADOPTION_MESSAGES.requestNotFound);
      if (!isAdmin) throw forbidden('Only an administrator can delete an adoption request');
      // A retry of a deletion that happened finds nothing left to do.
      if (r.deleted) return [];
      return [
        {
          type: 'AdoptionRequestDeleted',
          data: { requestId, requesterId: r.requesterId, deletedBy: actorId, deletedAt: at },
        },
      ];
    }
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

export const adoptionAdDecider = {
  initialState: initialAdoptionAdState,
  evolve: evolveAdoptionAd,
  decide: decideAdoptionAd,
};

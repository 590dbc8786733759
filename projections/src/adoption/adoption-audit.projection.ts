import { adIdOfStream, ADOPTION_EVENT_TYPES, type AdoptionEvent } from '@pawhaven/contracts';
import { defineProjection } from '@pawhaven/platform';

type Row = {
  subject: 'ad' | 'request';
  requestId: string | null;
  from: string | null;
  to: string | null;
  details: Record<string, unknown>;
};

/**
 * `adoption_audit`: one row per event of an ad, keyed by its log position, with the status change it made and who
 * made it. Built from the events alone, so a rebuild reproduces the same rows. A deleted user's rows stay (the audit
 * keeps the facts): their id no longer names a user, so the timeline shows the actor as 'deleted user'.
 */
export const adoptionAuditProjection = defineProjection({
  name: 'adoption-audit',
  tables: ['adoption_audit'],
  handles: ADOPTION_EVENT_TYPES,
  async apply(tx, recorded) {
    const event = { type: recorded.type, data: recorded.data } as AdoptionEvent;
    const adId = adIdOfStream(recorded.streamId);
    const adStatusBefore = async () => {
      const last = await tx('adoption_audit')
        .where({ ad_id: adId, subject: 'ad' })
        .whereNotNull('to_status')
        .orderBy('position', 'desc')
        .first<{ to_status: string } | undefined>('to_status');
      return last?.to_status ?? null;
    };
    let row: Row;
    switch (event.type) {
      case 'AdoptionAdPublished':
        row = {
          subject: 'ad',
          requestId: null,
          from: null,
          to: 'available',
          details: { name: event.data.details.name, petType: event.data.details.petType },
        };
        break;
      case 'AdoptionAdUpdated':
        row = {
          subject: 'ad',
          requestId: null,
          from: null,
          to: null,
          details: { changed: Object.keys(event.data.changes) },
        };
        break;
      case 'AdoptionAdDeleted':
        row = {
          subject: 'ad',
          requestId: null,
          from: await adStatusBefore(),
          to: 'deleted',
          details: { byAdmin: event.data.byAdmin },
        };
        break;
      case 'AdoptionRequested':
        row = {
          subject: 'request',
          requestId: event.data.requestId,
          from: null,
          to: 'pending',
          details: { requesterId: event.data.requesterId },
        };
        break;
      case 'AdoptionRequestAccepted':
        row = {
          subject: 'request',
          requestId: event.data.requestId,
          from: 'pending',
          to: 'accepted',
          details: {},
        };
        break;
      case 'PetAdopted':
        row = {
          subject: 'ad',
          requestId: event.data.requestId,
          from: 'available',
          to: 'adopted',
          details: { adopterId: event.data.adopterId },
        };
        break;
      case 'AdoptionRequestRejected':
        row = {
          subject: 'request',
          requestId: event.data.requestId,
          from: 'pending',
          to: 'rejected',
          details: { reason: event.data.reason },
        };
        break;
      case 'AdoptionRequestWithdrawn':
        row = {
          subject: 'request',
          requestId: event.data.requestId,
          from: 'pending',
          to: 'withdrawn',
          details: {},
        };
        break;
      case 'AdoptionRequestClosed':
        row = {
          subject: 'request',
          requestId: event.data.requestId,
          from: 'pending',
          to: 'closed',
          details: { reason: event.data.reason },
        };
        break;
      case 'AdoptionRequestDeleted': {
        // Removed by an administrator (the actor): from whatever status the timeline last gave the request.
        const last = await tx('adoption_audit')
          .where({ ad_id: adId, request_id: event.data.requestId, subject: 'request' })
          .whereNotNull('to_status')
          .orderBy('position', 'desc')
          .first<{ to_status: string } | undefined>('to_status');
        row = {
          subject: 'request',
          requestId: event.data.requestId,
          from: last?.to_status ?? null,
          to: 'deleted',
          details: { requesterId: event.data.requesterId, byAdmin: true },
        };
        break;
      }
      default: {
        const _exhaustive: never = event;
        return;
      }
    }
    await tx('adoption_audit')
      .insert({
        position: recorded.position.toString(),
        ad_id: adId,
        request_id: row.requestId,
        subject: row.subject,
        event_type: recorded.type,
        from_status: row.from,
        to_status: row.to,
        actor_id: typeof recorded.metadata.actorId === 'string' ? recorded.metadata.actorId : null,
        at: recorded.createdAt,
        details: JSON.stringify(row.details),
      })
      .onConflict('position')
      .ignore();
  },
});

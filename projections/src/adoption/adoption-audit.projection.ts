import { adIdOfStream, ADOPTION_EVENT_TYPES, type AdoptionEvent } from '@pawhaven/contracts';
import { defineReadModel } from '@pawhaven/platform';

type Entry = {
  subject: 'ad' | 'request';
  requestId: string | null;
  from: string | null;
  to: string | null;
  details: Record<string, unknown>;
};

/**
 * An `adoption_audit` row, every column included; readers import it. `Time` is how a timestamp reads and `Position`
 * how the bigint position does: ISO text and a number or text in the model's `evolve`, a `Date` and text from the
 * `pg` driver.
 */
export type AuditRow<Time = string, Position = string | number> = {
  position: Position;
  ad_id: string;
  request_id: string | null;
  subject: Entry['subject'];
  event_type: string;
  from_status: string | null;
  to_status: string | null;
  actor_id: string | null;
  at: Time;
  details: Record<string, unknown>;
};

/**
 * The timeline entry an event makes, given the status the timeline last gave the ad and the request it names (only
 * a deletion reads them: every other change has one status it comes from).
 */
function entryOf(event: AdoptionEvent, before: { ad: string | null; request: string | null }): Entry {
  switch (event.type) {
    case 'AdoptionAdPublished':
      return {
        subject: 'ad',
        requestId: null,
        from: null,
        to: 'available',
        // The pet's name is its owner's text (sealed in the log): the history screen takes it from the ad itself.
        details: { petType: event.data.details.petType },
      };
    case 'AdoptionAdUpdated':
      return {
        subject: 'ad',
        requestId: null,
        from: null,
        to: null,
        details: { changed: Object.keys(event.data.changes) },
      };
    case 'AdoptionAdDeleted':
      return {
        subject: 'ad',
        requestId: null,
        from: before.ad,
        to: 'deleted',
        details: { byAdmin: event.data.byAdmin },
      };
    case 'AdoptionRequested':
      return {
        subject: 'request',
        requestId: event.data.requestId,
        from: null,
        to: 'pending',
        details: { requesterId: event.data.requesterId },
      };
    case 'AdoptionRequestAccepted':
      return {
        subject: 'request',
        requestId: event.data.requestId,
        from: 'pending',
        to: 'accepted',
        details: {},
      };
    case 'PetAdopted':
      return {
        subject: 'ad',
        requestId: event.data.requestId,
        from: 'available',
        to: 'adopted',
        details: { adopterId: event.data.adopterId },
      };
    case 'AdoptionRequestRejected':
      return {
        subject: 'request',
        requestId: event.data.requestId,
        from: 'pending',
        to: 'rejected',
        details: { reason: event.data.reason },
      };
    case 'AdoptionRequestWithdrawn':
      return {
        subject: 'request',
        requestId: event.data.requestId,
        from: 'pending',
        to: 'withdrawn',
        details: {},
      };
    case 'AdoptionRequestClosed':
      return {
        subject: 'request',
        requestId: event.data.requestId,
        from: 'pending',
        to: 'closed',
        details: { reason: event.data.reason },
      };
    case 'AdoptionRequestDeleted':
      // Removed by an administrator (the actor): from whatever status the timeline last gave the request.
      return {
        subject: 'request',
        requestId: event.data.requestId,
        from: before.request,
        to: 'deleted',
        details: { requesterId: event.data.requesterId, byAdmin: true },
      };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/**
 * `adoption_audit`: one row per event of an ad, keyed by its log position, with the status change it made and who
 * made it. Built from the events alone, so a rebuild reproduces the same rows. A deleted user's rows stay (the audit
 * keeps the facts): their id no longer names a user, so the timeline shows the actor as 'deleted user'.
 */
export const adoptionAuditProjection = defineReadModel<{ adoption_audit: AuditRow }>({
  name: 'adoption-audit',
  // What an event does here depends only on its own stream's earlier events (may consume a partitioned bus).
  order: 'stream',
  tables: { adoption_audit: { key: ['position'], lookups: ['ad_id'] } },
  handles: ADOPTION_EVENT_TYPES,
  // Ids, statuses and the pet's type: no personal field.
  readsPersonalData: false,
  evolve({ adoption_audit: audit }, recorded) {
    const position = recorded.position.toString();
    if (audit.get(position)) return; // recorded once
    const event = recorded as unknown as AdoptionEvent;
    const adId = adIdOfStream(recorded.streamId);
    /** The latest status the timeline gave the ad, or the request `requestId` when one is named. */
    const lastStatus = (requestId?: string) => {
      let last: AuditRow | undefined;
      for (const row of audit.find('ad_id', adId)) {
        if (row.to_status === null) continue;
        if (requestId ? row.subject !== 'request' || row.request_id !== requestId : row.subject !== 'ad')
          continue;
        if (!last || Number(row.position) > Number(last.position)) last = row;
      }
      return last?.to_status ?? null;
    };
    const row = entryOf(event, {
      ad: event.type === 'AdoptionAdDeleted' ? lastStatus() : null,
      request: event.type === 'AdoptionRequestDeleted' ? lastStatus(event.data.requestId) : null,
    });
    audit.put({
      position,
      ad_id: adId,
      request_id: row.requestId,
      subject: row.subject,
      event_type: recorded.type,
      from_status: row.from,
      to_status: row.to,
      actor_id: typeof recorded.metadata.actorId === 'string' ? recorded.metadata.actorId : null,
      at: recorded.createdAt.toISOString(),
      details: row.details,
    });
  },
});

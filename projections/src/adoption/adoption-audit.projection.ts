import { adIdOfStream, ADOPTION_EVENT_TYPES, type AdoptionEvent } from '@pawhaven/contracts';
import { defineProjection, type FoldedRow } from '@pawhaven/platform';

type Row = {
  subject: 'ad' | 'request';
  requestId: string | null;
  from: string | null;
  to: string | null;
  details: Record<string, unknown>;
};

/** What the fold remembers of an ad's timeline: the last status it gave the ad and each of its requests. */
type Timeline = { adStatus: string | null; requestStatus: Map<string, string> };

/**
 * The timeline entry an event makes, given the status the timeline last gave the ad and the request it names (only
 * a deletion reads them: every other change has one status it comes from). Shared by `apply` and `fold`.
 */
function entryOf(event: AdoptionEvent, before: { ad: string | null; request: string | null }): Row {
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
export const adoptionAuditProjection = defineProjection({
  name: 'adoption-audit',
  tables: ['adoption_audit'],
  handles: ADOPTION_EVENT_TYPES,
  // Ids, statuses and the pet's type: no personal field.
  readsPersonalData: false,
  async apply(tx, recorded) {
    const event = { type: recorded.type, data: recorded.data } as AdoptionEvent;
    const adId = adIdOfStream(recorded.streamId);
    const lastStatus = async (where: Record<string, string>) =>
      (
        await tx('adoption_audit')
          .where({ ad_id: adId, ...where })
          .whereNotNull('to_status')
          .orderBy('position', 'desc')
          .first<{ to_status: string } | undefined>('to_status')
      )?.to_status ?? null;
    const row = entryOf(event, {
      ad: event.type === 'AdoptionAdDeleted' ? await lastStatus({ subject: 'ad' }) : null,
      request:
        event.type === 'AdoptionRequestDeleted'
          ? await lastStatus({ subject: 'request', request_id: event.data.requestId })
          : null,
    });
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
  fold: () => {
    const audit = new Map<string, FoldedRow>();
    const timelines = new Map<string, Timeline>();

    return {
      apply(recorded) {
        const position = recorded.position.toString();
        if (audit.has(position)) return;
        const event = recorded as unknown as AdoptionEvent;
        const adId = adIdOfStream(recorded.streamId);
        let timeline = timelines.get(adId);
        if (!timeline) {
          timeline = { adStatus: null, requestStatus: new Map() };
          timelines.set(adId, timeline);
        }
        const row = entryOf(event, {
          ad: timeline.adStatus,
          request:
            event.type === 'AdoptionRequestDeleted'
              ? (timeline.requestStatus.get(event.data.requestId) ?? null)
              : null,
        });
        // The statuses `apply` reads back from the table: the latest non-null `to_status` of each subject.
        if (row.to !== null) {
          if (row.subject === 'ad') timeline.adStatus = row.to;
          else if (row.requestId !== null) timeline.requestStatus.set(row.requestId, row.to);
        }
        audit.set(position, {
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
      rows: () => ({ adoption_audit: audit.values() }),
    };
  },
});

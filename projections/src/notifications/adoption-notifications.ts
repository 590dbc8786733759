import {
  adIdOfStream,
  ADOPTION_MESSAGES,
  NOTIFICATION_TEXTS as T,
  type AdoptionEvent,
} from '@pawhaven/contracts';
import type { Notices, RecordedEvent } from '@pawhaven/platform';
import { notify, takeAway } from './deliver';
import { notificationId, text, timeOf, usernameOf, type NotificationStore } from './notifications.rows';

/**
 * Adoption's notifications: adoption_request to the ad's owner; adoption_request_accepted / _rejected to the
 * requester, including each one declined because another request was accepted. A deleted request takes away the
 * notifications about it. Which ad belongs to whom and is called what, and which request was sent by whom on which
 * ad, are this model's own lookups (`notification_ads`, `notification_adoption_requests`).
 */
export function applyAdoptionEvent(
  rows: NotificationStore,
  recorded: RecordedEvent,
  event: AdoptionEvent,
  notices: Notices,
): void {
  const adId = adIdOfStream(recorded.streamId);
  switch (event.type) {
    case 'AdoptionAdPublished': {
      const ownerId = text(event.data.ownerId);
      if (!ownerId || rows.notification_ads.get(adId)) return;
      rows.notification_ads.put({
        id: adId,
        owner_id: ownerId,
        name: String(event.data.details?.name ?? ''),
      });
      return;
    }
    case 'AdoptionAdUpdated': {
      const name = event.data.changes?.name;
      const ad = rows.notification_ads.get(adId);
      if (typeof name === 'string' && ad) rows.notification_ads.put({ ...ad, name });
      return;
    }
    case 'AdoptionRequested': {
      const d = event.data;
      const [requestId, requesterId] = [text(d.requestId), text(d.requesterId)];
      if (!requestId || !requesterId) return;
      // What `notify` reads, asked with the ad when the event names its owner (ask first for every row the event
      // names): one load on a live batch. Requests recorded before the owner was carried take a second one.
      const ownerId = text(d.ownerId);
      rows.notification_users.get(requesterId);
      if (ownerId) {
        rows.notification_users.get(ownerId);
        rows.notifications.get(notificationId(recorded.eventId, ownerId));
      }
      if (!rows.notification_adoption_requests.get(requestId))
        rows.notification_adoption_requests.put({ id: requestId, ad_id: adId, requester_id: requesterId });
      const ad = rows.notification_ads.get(adId);
      if (!ad) return;
      const { title, message } = T.adoption_request;
      notify(rows, recorded, notices, timeOf(d.requestedAt, recorded), [
        {
          recipientId: ad.owner_id,
          type: 'adoption_request',
          title,
          message: message(usernameOf(rows, requesterId), ad.name),
          actorId: requesterId,
          adId,
          requestId,
        },
      ]);
      return;
    }
    case 'AdoptionRequestAccepted':
    case 'AdoptionRequestRejected': {
      const requestId = text(event.data.requestId);
      // The request with its ad, as this model recorded them.
      const request = requestId ? rows.notification_adoption_requests.get(requestId) : undefined;
      const ad = request ? rows.notification_ads.get(request.ad_id) : undefined;
      if (!requestId || !request || !ad) return;
      const accepted = event.type === 'AdoptionRequestAccepted';
      const t = accepted
        ? T.adoption_request_accepted
        : event.data.reason === ADOPTION_MESSAGES.anotherAccepted
          ? T.adoption_request_rejected_other
          : T.adoption_request_rejected;
      const at = accepted ? event.data.acceptedAt : event.data.rejectedAt;
      notify(rows, recorded, notices, timeOf(at, recorded), [
        {
          recipientId: request.requester_id,
          type: accepted ? 'adoption_request_accepted' : 'adoption_request_rejected',
          title: t.title,
          message: t.message(ad.name),
          actorId: ad.owner_id,
          adId: ad.id,
          requestId,
        },
      ]);
      return;
    }
    case 'AdoptionRequestDeleted': {
      const requestId = text(event.data.requestId);
      if (!requestId) return;
      rows.notification_adoption_requests.delete(requestId);
      takeAway(rows, notices, rows.notifications.find('request_id', requestId));
      return;
    }
    default:
      return;
  }
}

import { NOTIFICATION_EVENT_TYPES } from '@pawhaven/contracts';
import { defineReadModel } from '@pawhaven/platform';
import { applyAdoptionEvent } from './adoption-notifications';
import { applyCommunityEvent } from './community-notifications';
import { NOTIFICATION_TABLES, type Handled, type NotificationRows } from './notifications.rows';
import { changedUser, forgetUser, registered, renewed, verified } from './people';
import { applyListEvent } from './user-lists';

const HANDLES = [
  'PostPublished',
  'PostDeleted',
  'CommentAdded',
  'CommentDeleted',
  'PostLiked',
  'PostUnliked',
  'AdoptionAdPublished',
  'AdoptionAdUpdated',
  'AdoptionRequested',
  'AdoptionRequestAccepted',
  'AdoptionRequestRejected',
  'UserRegistered',
  'RegistrationRenewed',
  'EmailVerified',
  'UserDeleted',
  'AdoptionRequestDeleted',
  ...NOTIFICATION_EVENT_TYPES,
] as const satisfies readonly Handled['type'][];
/**
 * `notifications`: what happened to each user, built from the log alone (a projection, so it can be rebuilt), never
 * written by a command handler. In four parts: who is who (`people.ts`: names, veterinarians' terms, deleted
 * accounts), the community's notifications and veterinarians' posts broadcast to the other veterinarians
 * (`community-notifications.ts`, `vet-broadcasts.ts`), adoption's (`adoption-notifications.ts`), and what each user
 * did with their list (`user-lists.ts`). Nobody is notified of their own action, nor once their account is deleted
 * (`deliver.ts`). Each created notification is announced to the realtime gateway ({ kind: 'notification', userId,
 * id }); each change of a list ({ kind: 'notifications-changed', userId }). The other tables are this model's own
 * lookups, written from the log as it goes (never another model's tables: a rebuild replays one model alone).
 */
export const notificationsProjection = defineReadModel<NotificationRows>({
  name: 'notifications',
  tables: NOTIFICATION_TABLES,
  handles: HANDLES,
  // Ids and the product's own texts; usernames and pets' names are the personal fields it reads (sealed).
  readsPersonalData: ['UserRegistered', 'RegistrationRenewed', 'AdoptionAdPublished', 'AdoptionAdUpdated'],
  evolve(rows, recorded, notices) {
    const event = { type: recorded.type, data: recorded.data ?? {} } as Handled;
    switch (event.type) {
      case 'UserRegistered':
        return registered(rows, recorded, event.data);
      case 'RegistrationRenewed':
        return changedUser(rows, recorded, renewed(event.data));
      case 'EmailVerified':
        return changedUser(rows, recorded, verified);
      case 'UserDeleted':
        return forgetUser(rows, notices, event.data);
      case 'PostPublished':
      case 'PostDeleted':
      case 'CommentAdded':
      case 'CommentDeleted':
      case 'PostLiked':
      case 'PostUnliked':
        return applyCommunityEvent(rows, recorded, event, notices);
      case 'AdoptionAdPublished':
      case 'AdoptionAdUpdated':
      case 'AdoptionRequested':
      case 'AdoptionRequestAccepted':
      case 'AdoptionRequestRejected':
      case 'AdoptionRequestDeleted':
        return applyAdoptionEvent(rows, recorded, event, notices);
      case 'NotificationRead':
      case 'NotificationDeleted':
      case 'AllNotificationsRead':
      case 'AllNotificationsDeleted':
        return applyListEvent(rows, recorded, event, notices);
      default:
        return;
    }
  },
});

// Personal data in events: which fields are personal and whose (crypto-shredding, docs/decisions.md).
import type { AdoptionEventType } from './events/adoption-events';
import type { ChatEventType } from './events/chat-events';
import type { NotificationEventType } from './events/notification-events';
import type { CommunityEventType } from './events/community-events';
import type { ContactEventType, DirectoryEventType } from './events/directory-events';
import type { ClaimEvent, UserEventType } from './events/user-events';

/**
 * Whose a personal field is: the owner's user id, read from the same event. The owner's key encrypts the field;
 * deleting the owner destroys the key, and the field reads as its `shredded` value from then on.
 * - `data`: a field of the event's data (e.g. `requesterId`);
 * - `stream`: the rest of the stream id after this prefix (`user-{id}` events carry no user id in their data);
 * - `actor`: the event's `metadata.actorId` (only where the rules make the actor the owner: owner-only edits);
 * - `members`: two fields of the event's data naming the two people a private conversation belongs to. The field is
 *   sealed under a key made from both their keys, so deleting either one shreds it (as the product removes the
 *   conversation for both).
 */
export type PersonalDataOwner =
  { data: string } | { stream: string } | { actor: true } | { members: readonly [string, string] };

export type PersonalField = {
  /** Dot-separated path into the event's `data` (e.g. `details.description`). Absent or null: nothing to hide. */
  path: string;
  /**
   * What the field reads as once its owner's key is destroyed. '' for required texts (the read models' columns are
   * NOT NULL, and a decider sees an empty text), null where the event type allows null.
   */
  shredded: '' | null;
  /**
   * Set on what only the people it belongs to may read, never an administrator (private messages): every admin read
   * of the log shows this text instead (`hidePrivateFields`).
   */
  private?: string;
};

/** What admins see in place of a private message's text (the Events browser and every admin read of the log). */
export const PRIVATE_MESSAGE = '[private message]';

export type PersonalDataRule = { owner: PersonalDataOwner; fields: readonly PersonalField[] };

/** An event type that carries nothing personal, with the reason (so the choice is a reviewed one). */
export type NoPersonalData = { none: string };

/** Every event type the product records (contracts' event unions, plus the command side's bookkeeping events). */
export type KnownEventType =
  | UserEventType
  | ClaimEvent['type']
  | AdoptionEventType
  | ContactEventType
  | CommunityEventType
  | ChatEventType
  | NotificationEventType
  | DirectoryEventType
  | 'UsernameClaimsMigrated'
  | 'UserDeleted';

const text = (path: string): PersonalField => ({ path, shredded: '' });

const IDS_AND_TIMES = 'ids, flags and times only';

/**
 * The list, event type by event type. Typed over every known event type, so a new event does not compile until it
 * is listed here (and `personal-data.unit.test.ts` checks the runtime lists and the event sources too).
 *
 * Usernames are shredded too (they are often real names), and password hashes (a hash still confirms a guessed
 * password). What keeps a name unique is its claim streams, kept under keyed hashes of the name's keys
 * (PERSONAL_STREAM_PREFIXES), which also stand in the events' `usernameKeys`: they survive the person and keep the
 * name taken, but nobody without the server's secret can tell which name they are.
 *
 * Not shredded, on purpose: image paths (an opaque random id: the picture itself is in the `images` table, removed
 * when the user is deleted, and staged images are confirmed by finding their path in the log), a pet's type and the
 * other choices of a list, public directory content.
 */
export const PERSONAL_DATA: Readonly<Record<KnownEventType, PersonalDataRule | NoPersonalData>> = {
  // accounts (stream `user-{id}`)
  // A shredded username reads '' and a shredded password hash null or '' (no password): by then the account is
  // deleted, and nothing decides on it or shows it any more.
  UserRegistered: {
    owner: { data: 'userId' },
    fields: [
      text('email'),
      { path: 'googleSubject', shredded: null },
      text('username'),
      { path: 'passwordHash', shredded: null },
    ],
  },
  RegistrationRenewed: { owner: { stream: 'user-' }, fields: [text('username'), text('passwordHash')] },
  RegistrationTokenIssued: { none: 'a token hash' },
  RegistrationCodeIssued: { none: 'a code hash' },
  RegistrationCodeRejected: { none: IDS_AND_TIMES },
  EmailVerified: { none: IDS_AND_TIMES },
  GoogleAccountLinked: { owner: { stream: 'user-' }, fields: [text('googleSubject')] },
  UnverifiedPasswordDiscarded: { none: 'no data' },
  SessionStarted: { none: 'a session id and secret hash' },
  SessionRevoked: { none: IDS_AND_TIMES },
  PasswordChanged: { owner: { stream: 'user-' }, fields: [text('passwordHash')] },
  PasswordResetCodeIssued: { none: 'a code hash' },
  PasswordResetCodeRejected: { none: IDS_AND_TIMES },
  PasswordResetCodeVerified: { none: IDS_AND_TIMES },
  PasswordReset: { owner: { stream: 'user-' }, fields: [text('passwordHash')] },
  ProfileUpdated: {
    owner: { stream: 'user-' },
    fields: [text('phone'), text('city'), text('about')],
  },
  ProfileImageChanged: { none: 'an image path (see above)' },
  ProfileImageRemoved: { none: 'no data' },
  UserDeleted: { none: 'the deleted user, the admin and the time' },
  // claims: the e-mail and the username's keys are in the claim's stream id, pseudonymised (PERSONAL_STREAM_PREFIXES)
  EmailClaimed: { none: 'the owner id (the address is in the stream id, pseudonymised)' },
  UsernameHeld: { owner: { data: 'userId' }, fields: [text('username')] },
  UsernameConfirmed: { owner: { data: 'userId' }, fields: [text('username')] },
  UsernameReleased: { none: IDS_AND_TIMES },
  UsernameClaimed: { none: IDS_AND_TIMES },
  UsernameClaimsMigrated: { none: 'counts' },
  // adoption (stream `adoption-{adId}`)
  // Every text the owner typed about the pet: its name, age and breed are theirs too (they may say anything).
  AdoptionAdPublished: {
    owner: { data: 'ownerId' },
    fields: [
      text('details.name'),
      text('details.age'),
      text('details.breed'),
      text('details.description'),
      text('details.location'),
    ],
  },
  // Only the ad's owner may edit it (the server enforces it), so the actor is the owner.
  AdoptionAdUpdated: {
    owner: { actor: true },
    fields: [
      text('changes.name'),
      text('changes.age'),
      text('changes.breed'),
      text('changes.description'),
      text('changes.location'),
    ],
  },
  AdoptionAdDeleted: { none: IDS_AND_TIMES },
  AdoptionRequested: {
    owner: { data: 'requesterId' },
    fields: [text('name'), text('email'), text('phone'), text('message')],
  },
  AdoptionRequestAccepted: { none: IDS_AND_TIMES },
  PetAdopted: { none: IDS_AND_TIMES },
  AdoptionRequestRejected: { none: 'a reason chosen by the product' },
  AdoptionRequestWithdrawn: { none: IDS_AND_TIMES },
  AdoptionRequestClosed: { none: 'a reason chosen by the product' },
  AdoptionRequestDeleted: { none: IDS_AND_TIMES },
  // contact form: a visitor's message has no account to shred by (userId null) and stays as written
  ContactMessageReceived: {
    owner: { data: 'userId' },
    fields: [text('name'), text('email'), text('message')],
  },
  // community (stream `post-{id}`)
  PostPublished: { owner: { data: 'authorId' }, fields: [text('caption')] },
  PostCaptionEdited: { owner: { data: 'authorId' }, fields: [text('caption')] },
  PostDeleted: { none: IDS_AND_TIMES },
  CommentAdded: { owner: { data: 'authorId' }, fields: [text('content')] },
  CommentDeleted: { none: IDS_AND_TIMES },
  PostLiked: { none: IDS_AND_TIMES },
  PostUnliked: { none: IDS_AND_TIMES },
  // chat (stream `conversation-{id}`)
  ConversationStarted: { none: IDS_AND_TIMES },
  ConversationAboutAd: { none: IDS_AND_TIMES },
  // Private to the two members: sealed under both their keys, and never shown to an admin.
  MessageSent: {
    owner: { members: ['senderId', 'recipientId'] },
    fields: [{ path: 'text', shredded: '', private: PRIVATE_MESSAGE }],
  },
  MessagesDelivered: { none: IDS_AND_TIMES },
  MessagesRead: { none: IDS_AND_TIMES },
  // notifications
  NotificationRead: { none: IDS_AND_TIMES },
  AllNotificationsRead: { none: IDS_AND_TIMES },
  NotificationDeleted: { none: IDS_AND_TIMES },
  AllNotificationsDeleted: { none: IDS_AND_TIMES },
  // public directory content (organisations and the team, published as seed data)
  NgoListed: { none: 'public directory content' },
  ClinicListed: { none: 'public directory content' },
  FaqPublished: { none: 'public content' },
  TeamMemberAdded: { none: 'public directory content' },
};

/**
 * Streams whose id itself holds personal data: the part after the prefix is stored as its pseudonym, a keyed hash
 * under a server secret (`user-email-{address}` → `user-email-hmac:{hex}`, `username-key:{key}` →
 * `username-key:hmac:{hex}`), the same for the same value, so claims still work. Checked in this order: the first
 * version's `username-{name}` claims come last, as `username-key:` starts the same way.
 */
export const PERSONAL_STREAM_PREFIXES = ['user-email-', 'username-key:', 'username-'] as const;
export const PSEUDONYM_MARK = 'hmac:';

/** The rule of an event type, or undefined when it carries nothing personal (or is unknown). */
export function personalDataRule(type: string): PersonalDataRule | undefined {
  const entry = (PERSONAL_DATA as Record<string, PersonalDataRule | NoPersonalData | undefined>)[type];
  return entry && 'fields' in entry ? entry : undefined;
}

/**
 * The user ids whose keys seal an event's personal fields: one owner, both members of a conversation, or none when
 * the event names nobody to shred by (a visitor, a system actor, a conversation missing a member).
 */
export function personalDataOwners(
  rule: PersonalDataRule,
  event: { streamId: string; data: unknown; metadata?: { actorId?: string } },
): string[] {
  const { owner } = rule;
  if ('members' in owner) {
    const ids = owner.members.map((path) => readPath(event.data, path));
    return ids.every(isUserId) && ids[0] !== ids[1] ? (ids as string[]) : [];
  }
  let id: unknown;
  if ('data' in owner) id = readPath(event.data, owner.data);
  else if ('stream' in owner)
    id = event.streamId.startsWith(owner.stream) ? event.streamId.slice(owner.stream.length) : null;
  else id = event.metadata?.actorId;
  return isUserId(id) ? [id] : [];
}

const isUserId = (id: unknown): id is string => typeof id === 'string' && id !== '' && id !== 'system';

/**
 * The event as an administrator may see it: each private field (`PersonalField.private`) replaced by its text,
 * whatever it holds (sealed, opened or shredded). The one rule every admin read of the log goes through.
 */
export function hidePrivateFields<E extends { type: string; data: unknown }>(event: E): E {
  const rule = personalDataRule(event.type);
  const hidden = rule?.fields.filter(
    (f) => f.private !== undefined && readPath(event.data, f.path) !== undefined,
  );
  if (!hidden || hidden.length === 0) return event;
  return {
    ...event,
    data: writePaths(
      event.data,
      hidden.map((f) => [f.path, f.private] as const),
    ),
  };
}

/** The value at a dot-separated path of `data`, or undefined. */
export function readPath(data: unknown, path: string): unknown {
  // Most paths are one key: read without splitting (a rebuild reads a million of them).
  if (path.indexOf('.') < 0)
    return data === null || typeof data !== 'object' ? undefined : (data as Record<string, unknown>)[path];
  let at: unknown = data;
  for (const key of path.split('.')) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/**
 * A copy of `data` with the value at each path replaced (the paths must exist: callers read them first); every
 * object on the way is copied once, however many of its fields change.
 */
export function writePaths<T>(data: T, entries: readonly (readonly [path: string, value: unknown])[]): T {
  const root = { ...(data as Record<string, unknown>) };
  let copies: Set<object> | null = null;
  for (const [path, value] of entries) {
    if (path.indexOf('.') < 0) {
      root[path] = value;
      continue;
    }
    copies ??= new Set<object>([root]);
    const keys = path.split('.');
    let at = root;
    for (let i = 0; i < keys.length - 1; i++) {
      let next = at[keys[i]!] as Record<string, unknown>;
      if (!copies.has(next)) copies.add((at[keys[i]!] = next = { ...next }));
      at = next;
    }
    at[keys[keys.length - 1]!] = value;
  }
  return root as T;
}

/** A copy of `data` with the value at `path` replaced (the path must exist: callers read it first). */
export function writePath<T>(data: T, path: string, value: unknown): T {
  const [key, ...rest] = path.split('.');
  const copy = { ...(data as Record<string, unknown>) };
  copy[key!] = rest.length === 0 ? value : writePath(copy[key!], rest.join('.'), value);
  return copy as T;
}

import type { Knex } from 'knex';
import {
  userIdOfStream,
  userStream,
  type AdoptionEvent,
  type CommunityEvent,
  type UserEvent,
} from '@pawhaven/contracts';

/**
 * Pictures go with their content: a picture nothing shows any more (its post or ad deleted, a profile or ad picture
 * replaced or removed, a request deleted by an admin, its owner's account deleted) is deleted from `images`, so
 * `GET /api/images/{id}` answers 404 (moderation can take a picture down). The rule reads the log, not the read
 * models: the paths events name are never sealed, and each picture is named only in the stream it was staged for
 * (`withStagedImage`), so a stream's own events say whether it is still shown.
 *
 * Two callers apply it: the `released-images` reactor, following the log (every deletion, whoever recorded it,
 * committed with its checkpoint: a crash leaves nothing half done), and the command side right after its append
 * (`releasingImages`), so the deleting request's answer already finds the picture gone, whatever the projections'
 * lag. Both are idempotent.
 */

/** Events after which one of their stream's pictures (or, for `UserDeleted`, any of the person's) may be unshown. */
export const IMAGE_RELEASING_EVENTS = [
  'ProfileImageChanged',
  'ProfileImageRemoved',
  'AdoptionAdUpdated',
  'AdoptionAdDeleted',
  'AdoptionRequestDeleted',
  'PostDeleted',
  'UserDeleted',
] as const satisfies readonly (UserEvent | AdoptionEvent | CommunityEvent)['type'][];

/** The events a stream's pictures are read from (`UserDeleted` is looked up by owner, see below). */
const PICTURE_EVENTS = [
  'ProfileImageChanged',
  'ProfileImageRemoved',
  'AdoptionAdPublished',
  'AdoptionAdUpdated',
  'AdoptionAdDeleted',
  'AdoptionRequested',
  'AdoptionRequestDeleted',
  'PostPublished',
  'PostDeleted',
] as const satisfies readonly (UserEvent | AdoptionEvent | CommunityEvent)['type'][];

export type LoggedEvent = { streamId: string; type: string; data: unknown };

/** What a stream's events say about its pictures. */
export type StreamPictures = {
  /** Whose content it is: the account (a `user-{id}` stream), the ad's owner, the post's author. */
  ownerId: string | null;
  /** Every picture the content itself ever had (profile, ad, post), oldest first. */
  pictures: string[];
  /** The one it shows now; null when removed or when the content was deleted. */
  shown: string | null;
  /** The proof pictures sent with requests on an ad, with their sender and whether an admin deleted the request. */
  proofs: { image: string; requesterId: string; deleted: boolean }[];
};

const IMAGE_PATH = /^\/api\/images\/([0-9a-f]+)$/;
const imageIdOf = (path: unknown) => (typeof path === 'string' ? (IMAGE_PATH.exec(path)?.[1] ?? null) : null);
const text = (value: unknown) => (typeof value === 'string' ? value : null);
type Data = Record<string, unknown>;
const field = (data: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Data)[k] : undefined), data);

/** Folds one stream's events (in stream order) into its pictures; pictures are image ids. */
export function picturesOfStream(streamId: string, events: readonly LoggedEvent[]): StreamPictures {
  const result: StreamPictures = {
    ownerId: streamId.startsWith(userStream('')) ? userIdOfStream(streamId) : null,
    pictures: [],
    shown: null,
    proofs: [],
  };
  let deleted = false;
  /** Each request's proof, by request id, to mark the ones an admin deleted. */
  const proofOf = new Map<string, StreamPictures['proofs'][number]>();
  const show = (image: string | null) => {
    if (!image) return;
    if (!result.pictures.includes(image)) result.pictures.push(image);
    result.shown = image;
  };
  for (const e of events) {
    switch (e.type) {
      case 'ProfileImageChanged':
        show(imageIdOf(field(e.data, 'profileImage')));
        break;
      case 'ProfileImageRemoved':
        result.shown = null;
        break;
      case 'AdoptionAdPublished':
        result.ownerId = text(field(e.data, 'ownerId'));
        show(imageIdOf(field(e.data, 'details', 'imageUrl')));
        break;
      case 'AdoptionAdUpdated':
        show(imageIdOf(field(e.data, 'changes', 'imageUrl')));
        break;
      case 'PostPublished':
        result.ownerId = text(field(e.data, 'authorId'));
        show(imageIdOf(field(e.data, 'imageUrl')));
        break;
      case 'AdoptionAdDeleted':
      case 'PostDeleted':
        deleted = true;
        break;
      case 'AdoptionRequested': {
        const image = imageIdOf(field(e.data, 'petHistoryImage'));
        const requesterId = text(field(e.data, 'requesterId'));
        const requestId = text(field(e.data, 'requestId'));
        if (!image || !requesterId || !requestId) break;
        const proof = { image, requesterId, deleted: false };
        result.proofs.push(proof);
        proofOf.set(requestId, proof);
        break;
      }
      case 'AdoptionRequestDeleted': {
        const proof = proofOf.get(text(field(e.data, 'requestId')) ?? '');
        if (proof) proof.deleted = true;
        break;
      }
    }
  }
  if (deleted) result.shown = null;
  return result;
}

/**
 * The pictures of a stream nothing shows any more, given who is deleted. An ad's deletion closes its requests
 * without deleting them (the requester and the admins still see them, proof included), so proofs go only with their
 * request, their sender, or the ad's owner.
 */
export function picturesNoLongerShown(p: StreamPictures, deletedUsers: ReadonlySet<string>): string[] {
  const ownerGone = p.ownerId !== null && deletedUsers.has(p.ownerId);
  const shown = ownerGone ? null : p.shown;
  return [
    ...p.pictures.filter((image) => image !== shown),
    ...p.proofs.filter((x) => ownerGone || x.deleted || deletedUsers.has(x.requesterId)).map((x) => x.image),
  ];
}

/** The users of `ids` whose account is deleted (`UserDeleted` in their stream: one indexed lookup each). */
async function deletedAmong(knex: Knex, ids: Iterable<string>): Promise<Set<string>> {
  const streams = [...new Set(ids)].map(userStream);
  if (streams.length === 0) return new Set();
  const { rows } = await knex.raw<{ rows: { stream_id: string }[] }>(
    `SELECT stream_id FROM events WHERE stream_id = ANY(?) AND type = 'UserDeleted'`,
    [streams],
  );
  return new Set(rows.map((r) => userIdOfStream(r.stream_id)));
}

/** Deletes the pictures of these streams that nothing shows any more. Answers how many were deleted. */
async function deleteUnshownImages(knex: Knex, streamIds: readonly string[]): Promise<number> {
  if (streamIds.length === 0) return 0;
  const { rows } = await knex.raw<{ rows: LoggedEvent[] }>(
    `SELECT stream_id AS "streamId", type, data FROM events
      WHERE stream_id = ANY(?) AND type = ANY(?) ORDER BY stream_id, stream_revision`,
    [[...new Set(streamIds)], [...PICTURE_EVENTS]],
  );
  const byStream = new Map<string, LoggedEvent[]>();
  for (const row of rows) byStream.set(row.streamId, [...(byStream.get(row.streamId) ?? []), row]);
  const streams = [...byStream].map(([id, events]) => picturesOfStream(id, events));
  const people = streams.flatMap((s) => [
    ...(s.ownerId ? [s.ownerId] : []),
    ...s.proofs.map((x) => x.requesterId),
  ]);
  const deletedUsers = await deletedAmong(knex, people);
  const unshown = streams.flatMap((s) => picturesNoLongerShown(s, deletedUsers));
  if (unshown.length === 0) return 0;
  return knex('images').whereIn('id', unshown).delete();
}

/**
 * The streams whose pictures a deleted user takes along: their account, the ads they published, the ads they sent
 * requests to, their posts. A scan of the log by type (no index on creators), paid once per account deletion.
 */
async function streamsOfUser(knex: Knex, userId: string): Promise<string[]> {
  const { rows } = await knex.raw<{ rows: { stream_id: string }[] }>(
    `SELECT DISTINCT stream_id FROM events
      WHERE (type = 'AdoptionAdPublished' AND data->>'ownerId' = :id)
         OR (type = 'AdoptionRequested' AND data->>'requesterId' = :id)
         OR (type = 'PostPublished' AND data->>'authorId' = :id)`,
    { id: userId },
  );
  return [userStream(userId), ...rows.map((r) => r.stream_id)];
}

/** Whether `event` may leave a picture unshown (an ad edit only when it brings a new picture). */
export function releasesImages(event: Pick<LoggedEvent, 'type' | 'data'>): boolean {
  if (!(IMAGE_RELEASING_EVENTS as readonly string[]).includes(event.type)) return false;
  return event.type !== 'AdoptionAdUpdated' || field(event.data, 'changes', 'imageUrl') !== undefined;
}

/** Deletes the pictures `event` left unshown (none when it leaves none). Answers how many were deleted. */
export async function releaseImagesAfter(knex: Knex, event: LoggedEvent): Promise<number> {
  if (!releasesImages(event)) return 0;
  if (event.type !== 'UserDeleted') return deleteUnshownImages(knex, [event.streamId]);
  const userId = text(field(event.data, 'userId'));
  return userId ? deleteUnshownImages(knex, await streamsOfUser(knex, userId)) : 0;
}

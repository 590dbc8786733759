import { describe, expect, it } from 'vitest';
import { picturesNoLongerShown, picturesOfStream, releasesImages, type LoggedEvent } from './released-images';

/** Given a stream's events (and who is deleted), then the pictures nothing shows any more. */
const path = (id: string) => `/api/images/${id.padEnd(24, '0')}`;
// Stored images' ids are hex.
const id = (x: string) => x.padEnd(24, '0');
const given =
  (streamId: string, ...events: Omit<LoggedEvent, 'streamId'>[]) =>
  (...deleted: string[]) =>
    picturesNoLongerShown(
      picturesOfStream(
        streamId,
        events.map((e) => ({ ...e, streamId })),
      ),
      new Set(deleted),
    ).sort();

const published = {
  type: 'AdoptionAdPublished',
  data: { ownerId: 'olga', details: { imageUrl: path('a1') } },
};
const updated = (image?: string) => ({
  type: 'AdoptionAdUpdated',
  data: { changes: image ? { imageUrl: path(image) } : { name: 'Rex' } },
});
const requested = (requestId: string, requesterId: string, image: string | null) => ({
  type: 'AdoptionRequested',
  data: { requestId, requesterId, petHistoryImage: image && path(image) },
});
const post = { type: 'PostPublished', data: { authorId: 'pia', imageUrl: path('d1') } };
const avatar = (image: string) => ({ type: 'ProfileImageChanged', data: { profileImage: path(image) } });

describe('a profile', () => {
  it('shows its latest picture; earlier ones are unshown', () => {
    expect(given('user-uma', avatar('c1'), avatar('c2'))()).toEqual([id('c1')]);
  });
  it('shows none after a removal, and a new one after that', () => {
    expect(given('user-uma', avatar('c1'), { type: 'ProfileImageRemoved', data: {} })()).toEqual([id('c1')]);
    expect(
      given('user-uma', avatar('c1'), { type: 'ProfileImageRemoved', data: {} }, avatar('c2'))(),
    ).toEqual([id('c1')]);
  });
  it('shows nothing once the account is deleted', () => {
    expect(given('user-uma', avatar('c1'))('uma')).toEqual([id('c1')]);
  });
});

describe('an ad', () => {
  it('keeps its picture until replaced; a text-only edit changes nothing', () => {
    expect(given('adoption-1', published, updated())()).toEqual([]);
    expect(given('adoption-1', published, updated('a2'))()).toEqual([id('a1')]);
  });
  it('deleted: every picture it had goes, the proofs of its (closed) requests stay', () => {
    const deleted = { type: 'AdoptionAdDeleted', data: {} };
    expect(given('adoption-1', published, updated('a2'), requested('r1', 'rob', 'b1'), deleted)()).toEqual([
      id('a1'),
      id('a2'),
    ]);
  });
  it("a request's proof goes with the request an admin deleted, or with its sender's account", () => {
    const events = [published, requested('r1', 'rob', 'b1'), requested('r2', 'sam', 'b2')];
    const removed = { type: 'AdoptionRequestDeleted', data: { requestId: 'r1' } };
    expect(given('adoption-1', ...events, removed)()).toEqual([id('b1')]);
    expect(given('adoption-1', ...events)('sam')).toEqual([id('b2')]);
  });
  it("the owner's account deleted: the ad's picture and every proof on it go", () => {
    expect(
      given('adoption-1', published, requested('r1', 'rob', 'b1'), requested('r2', 'sam', null))('olga'),
    ).toEqual([id('a1'), id('b1')]);
  });
});

describe('a post', () => {
  it('keeps its picture until deleted, or until its author is', () => {
    expect(given('post-1', post)()).toEqual([]);
    expect(given('post-1', post, { type: 'PostDeleted', data: {} })()).toEqual([id('d1')]);
    expect(given('post-1', post)('pia')).toEqual([id('d1')]);
  });
});

it('ignores paths that are not stored images (seed pictures, addresses)', () => {
  const seed = { type: 'PostPublished', data: { authorId: 'pia', imageUrl: '/media/directory/ngo-paw.svg' } };
  expect(given('post-1', seed, { type: 'PostDeleted', data: {} })()).toEqual([]);
});

it('only events that can unshow a picture call for a clean-up', () => {
  expect(releasesImages({ type: 'PostDeleted', data: {} })).toBe(true);
  expect(releasesImages({ type: 'AdoptionAdUpdated', data: { changes: { imageUrl: path('a2') } } })).toBe(
    true,
  );
  expect(releasesImages({ type: 'AdoptionAdUpdated', data: { changes: { name: 'Rex' } } })).toBe(false);
  expect(releasesImages({ type: 'CommentDeleted', data: {} })).toBe(false);
});

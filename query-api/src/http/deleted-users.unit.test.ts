import { describe, expect, it } from 'vitest';
import { withoutDeletedUsers, type PendingDeletions } from './deleted-users';

/** Dana was deleted; her post p-dana, ad a-dana and conversation c-dana are still in the read models. */
const DANA = 'd0000000-0000-4000-8000-00000000000d';
const pending: PendingDeletions = {
  users: new Set([DANA]),
  hidden: new Set([DANA, 'p-dana', 'a-dana', 'c-dana']),
};
const show = (value: unknown) => withoutDeletedUsers(value as never, pending);

const author = (id: string) => ({ _id: id, id, username: id === DANA ? 'dana' : 'bob' });

describe('an answer without the deleted users', () => {
  it('drops their content and anything that belongs to them from lists', () => {
    expect(
      show([
        { _id: 'p-dana', userId: author(DANA), caption: 'hers' },
        { _id: 'p-bob', userId: author('bob'), caption: 'his', likes: ['bob', DANA] },
      ]),
    ).toEqual([{ _id: 'p-bob', userId: author('bob'), caption: 'his', likes: ['bob'] }]);
  });

  it('drops users from user lists, and notifications they caused', () => {
    expect(show({ success: true, data: [author(DANA), author('bob')] })).toEqual({
      success: true,
      data: [author('bob')],
    });
    expect(
      show({
        notifications: [
          { _id: 'n1', type: 'post_like', data: { postId: 'p-bob', actorId: DANA } },
          { _id: 'n2', type: 'post_like', data: { postId: 'p-bob', actorId: 'alice' } },
          { _id: 'n3', type: 'adoption_request_accepted', data: { adId: 'a-dana' } },
        ],
      }),
    ).toEqual({
      notifications: [{ _id: 'n2', type: 'post_like', data: { postId: 'p-bob', actorId: 'alice' } }],
    });
  });

  it('keeps a comment of theirs that someone answered, as a deleted comment without author', () => {
    const comments = [
      { _id: 'c1', userId: author(DANA), content: 'hers', parentCommentId: null, deleted: false },
      { _id: 'c2', userId: author('bob'), content: 'answer', parentCommentId: 'c1', deleted: false },
      { _id: 'c3', userId: author(DANA), content: 'unanswered', parentCommentId: null, deleted: false },
    ];
    expect(show(comments)).toEqual([
      { _id: 'c1', userId: null, content: '', parentCommentId: null, deleted: true },
      comments[1],
    ]);
  });

  it("turns a reference to their content in someone else's into null", () => {
    expect(show({ _id: 'c-bob', members: ['bob', 'alice'], ad: { _id: 'a-dana', name: 'Danapet' } })).toEqual(
      {
        _id: 'c-bob',
        members: ['bob', 'alice'],
        ad: null,
      },
    );
  });

  it('hides a whole answer that is theirs', () => {
    expect(typeof show({ success: true, data: author(DANA) })).toBe('symbol');
    expect(typeof show({ _id: 'c-dana', members: ['bob', DANA] })).toBe('symbol');
  });

  it('leaves everything else as it is', () => {
    const answer = { success: true, data: [{ _id: 'x', text: 'hello', n: 3, ok: true, none: null }] };
    expect(show(answer)).toEqual(answer);
  });
});

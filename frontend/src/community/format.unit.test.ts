import { describe, expect, it } from 'vitest';
import type { CommentDto } from '@pawhaven/contracts';
import {
  buildThreads,
  commentDate,
  liveCount,
  longDate,
  monthDay,
  postTitleAndText,
  withoutComment,
} from './format';

const comment = (id: string, parent: string | null = null, deleted = false): CommentDto => ({
  _id: id,
  id,
  postId: 'p',
  userId: { _id: 'u', id: 'u', username: 'amna', isVeterinarian: false, profileImage: null },
  content: deleted ? '' : `text ${id}`,
  parentCommentId: parent,
  deleted,
  createdAt: '2026-01-05T10:04:00Z',
});

describe('community display helpers', () => {
  it('nests replies under their parents, replies to replies too, oldest first', () => {
    const threads = buildThreads([
      comment('a'),
      comment('b'),
      comment('a1', 'a'),
      comment('a1x', 'a1'),
      comment('c'),
      comment('orphan', 'gone'),
    ]);
    expect(threads.map((t) => t.comment._id)).toEqual(['a', 'b', 'c', 'orphan']);
    expect(threads[0]!.replies.map((t) => t.comment._id)).toEqual(['a1']);
    expect(threads[0]!.replies[0]!.replies.map((t) => t.comment._id)).toEqual(['a1x']);
    expect(liveCount(threads)).toBe(6);
  });

  it('keeps a deleted comment with replies as a placeholder and drops one without', () => {
    const list = [comment('a'), comment('a1', 'a'), comment('b')];
    const afterA = withoutComment(list, 'a');
    expect(afterA.map((c) => [c._id, c.deleted])).toEqual([
      ['a', true],
      ['a1', false],
      ['b', false],
    ]);
    expect(afterA[0]!.content).toBe('');
    // The last reply of a deleted comment goes: the placeholder goes with it.
    expect(withoutComment(afterA, 'a1').map((c) => c._id)).toEqual(['b']);
    expect(withoutComment(list, 'b').map((c) => c._id)).toEqual(['a', 'a1']);
    expect(liveCount(buildThreads(afterA))).toBe(2);
  });

  it('formats dates in en-US: long on posts, short with time on comments', () => {
    expect(longDate('2026-01-05T10:04:00')).toBe('January 5, 2026');
    expect(monthDay('2026-01-05T10:04:00')).toBe('Jan 5');
    expect(commentDate('2026-01-05T15:04:00')).toBe('Jan 5, 2026, 3:04 PM');
    expect(longDate(null)).toBeNull();
    expect(longDate('not a date')).toBeNull();
  });

  it("titles a profile's post with its caption, 'Pet Story' without one", () => {
    expect(postTitleAndText({ caption: '', text: '' })).toEqual({ title: 'Pet Story', text: null });
    expect(postTitleAndText({ caption: 'Milo at the beach', text: 'Milo at the beach' })).toEqual({
      title: 'Milo at the beach',
      text: null,
    });
    const story = 'Rescued today\nShe was hiding under a car near the canal.';
    expect(postTitleAndText({ caption: story, text: story })).toEqual({
      title: 'Rescued today',
      text: story,
    });
    const long = 'x'.repeat(120);
    const { title } = postTitleAndText({ caption: long, text: long });
    expect(title).toHaveLength(80);
    expect(title.endsWith('…')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import type { TrailEvent } from '@pawhaven/platform';
import { personsInAnswer } from './idempotency';

const read = (e: Omit<TrailEvent, 'appended'>): TrailEvent => ({ ...e, appended: false });
const comment = (authorId: string, content: string) =>
  read({ streamId: 'post-p1', type: 'CommentAdded', data: { commentId: 'c', authorId, content } });

describe('personsInAnswer: whose data an answer holds', () => {
  it('is the requester, and nobody else when no one else’s words are in it', () => {
    const trail = [comment('ali', 'What a lovely face')];
    expect(personsInAnswer('{"content":"My own words"}', trail, 'sana')).toEqual({
      persons: ['sana'],
      ownerless: false,
    });
  });

  it('adds the owner of every personal field of the trail the answer contains (as JSON escapes it)', () => {
    const trail = [
      comment('ali', 'She said "hi" \\o/'),
      read({ streamId: 'user-zara', type: 'ProfileUpdated', data: { phone: '', city: 'Multan', about: '' } }),
      comment('bilal', 'Not quoted'),
    ];
    const answer = JSON.stringify({ text: 'Quoting: She said "hi" \\o/', city: 'Multan' });
    expect(personsInAnswer(answer, trail, 'sana')).toEqual({
      persons: ['ali', 'sana', 'zara'],
      ownerless: false,
    });
  });

  it('finds the person an anonymous request acted on (a sign-up echoes its e-mail)', () => {
    const trail: TrailEvent[] = [
      {
        streamId: 'user-u1',
        type: 'UserRegistered',
        data: { userId: 'u1', email: 'zara@gmail.com', googleSubject: null },
        appended: true,
      },
    ];
    expect(personsInAnswer('{"email":"zara@gmail.com"}', trail)).toEqual({
      persons: ['u1'],
      ownerless: false,
    });
  });

  it('says when the answer holds personal data nobody owns (a visitor), and ignores sealed fields', () => {
    const visitor = read({
      streamId: 'contact-m1',
      type: 'ContactMessageReceived',
      data: { userId: null, name: 'A Visitor', email: 'v@gmail.com', message: 'Hello' },
    });
    expect(personsInAnswer('{"name":"A Visitor"}', [visitor])).toEqual({ persons: [], ownerless: true });
    const sealed = comment('ali', 'pii:v1:00000000-0000-4000-8000-000000000000:a:b:c');
    expect(personsInAnswer('pii:v1:00000000-0000-4000-8000-000000000000:a:b:c', [sealed])).toEqual({
      persons: [],
      ownerless: false,
    });
  });
});

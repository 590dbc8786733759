import { describe, expect, it } from 'vitest';
import type { NotificationDto } from '@pawhaven/contracts';
import { badgeText, destinationOf, relativeTime } from './format';

const NOW = new Date('2026-03-10T12:00:00Z').getTime();
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('notification display helpers', () => {
  it("says 'Just now' under a minute, then minutes, hours and days up to 30 days, then the date", () => {
    expect(relativeTime(ago(0), NOW)).toBe('Just now');
    expect(relativeTime(ago(59 * S), NOW)).toBe('Just now');
    expect(relativeTime(ago(60 * S), NOW)).toBe('1m ago');
    expect(relativeTime(ago(59 * M + 59 * S), NOW)).toBe('59m ago');
    expect(relativeTime(ago(H), NOW)).toBe('1h ago');
    expect(relativeTime(ago(23 * H + 59 * M), NOW)).toBe('23h ago');
    expect(relativeTime(ago(D), NOW)).toBe('1d ago');
    expect(relativeTime(ago(30 * D), NOW)).toBe('30d ago');
    expect(relativeTime(ago(31 * D), NOW)).toBe('Feb 7, 2026');
    // A clock a little ahead of ours is still now.
    expect(relativeTime(ago(-5 * S), NOW)).toBe('Just now');
    expect(relativeTime('not a date', NOW)).toBe('');
    expect(relativeTime(null, NOW)).toBe('');
  });

  it("shows the unread count on the badge, '99+' above 99, nothing at 0", () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(undefined)).toBeNull();
    expect(badgeText(1)).toBe('1');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(badgeText(4321)).toBe('99+');
  });

  it('leads post types to their post and adoption types to the adoption pages', () => {
    const n = (type: NotificationDto['type'], data: NotificationDto['data']) => ({ type, data });
    expect(destinationOf(n('post_like', { postId: 'p1' }))).toBe('/posts/p1');
    expect(destinationOf(n('post_comment', { postId: 'p 2', commentId: 'c' }))).toBe('/posts/p%202');
    expect(destinationOf(n('new_post_vet_notification', { postId: 'p3' }))).toBe('/posts/p3');
    expect(destinationOf(n('post_like', {}))).toBeNull();
    expect(destinationOf(n('adoption_request', { adId: 'a', requestId: 'r' }))).toBe('/my-adoptions');
    expect(destinationOf(n('adoption_request_accepted', { adId: 'a', requestId: 'r' }))).toBe(
      '/adoptionhistory',
    );
    expect(destinationOf(n('adoption_request_rejected', {}))).toBe('/adoptionhistory');
  });
});

import { describe, expect, it } from 'vitest';
import { NOTIFICATION_MESSAGES } from '@pawhaven/contracts';
import { ApiError } from '../shared/api';
import {
  failureMessage,
  gateAllows,
  gateOnFailure,
  gateOnResume,
  gateOnSuccess,
  NotificationRequestError,
  OPEN_GATE,
} from './gate';

const http = (status: number, message: string | null = null) =>
  new ApiError('http', status, message, null, `Request failed with status ${status}`);
const network = new ApiError('network', 0, null, null, 'Network error');
const T = 1_000_000;

describe('notification request gate', () => {
  it('pauses every request for 2 minutes after a 429, then lets them go again', () => {
    const paused = gateOnFailure(OPEN_GATE, http(429), 'poll', T);
    expect(paused.error).toBe(NOTIFICATION_MESSAGES.rateLimitedResume);
    expect(gateAllows(paused, T)).toBe(false);
    expect(gateAllows(paused, T + 119_999)).toBe(false);
    expect(gateAllows(paused, T + 120_000)).toBe(true);
    // An answer that was on its way does not end the pause early.
    expect(gateOnSuccess(paused, T + 1000)).toBe(paused);
    expect(gateOnResume(paused, T + 1000)).toBe(paused);
    expect(gateOnResume(paused, T + 120_000)).toEqual(OPEN_GATE);
    expect(gateOnFailure(OPEN_GATE, http(429), 'load', T).error).toBe(NOTIFICATION_MESSAGES.rateLimited);
    // A rate-limited action pauses too.
    expect(gateAllows(gateOnFailure(OPEN_GATE, http(429), 'action', T), T + 1)).toBe(false);
  });

  it('stops on a 404 of the list until reset, but not on a 404 of one notification', () => {
    const stopped = gateOnFailure(OPEN_GATE, http(404), 'poll', T);
    expect(stopped).toEqual({ pausedUntil: null, stopped: true, error: NOTIFICATION_MESSAGES.notAvailable });
    expect(gateAllows(stopped, T + 10 * 60_000)).toBe(false);
    expect(gateOnSuccess(stopped, T)).toBe(stopped);
    expect(gateOnFailure(OPEN_GATE, http(404, 'Notification not found'), 'action', T)).toBe(OPEN_GATE);
  });

  it("shows 'Authentication required' on 401, the server's text or the fallback otherwise", () => {
    expect(gateOnFailure(OPEN_GATE, http(401), 'load', T).error).toBe(NOTIFICATION_MESSAGES.authRequired);
    expect(gateOnFailure(OPEN_GATE, http(500, 'Database is down'), 'load', T).error).toBe('Database is down');
    expect(gateOnFailure(OPEN_GATE, http(500), 'poll', T).error).toBe(NOTIFICATION_MESSAGES.fetchFailed);
    expect(gateOnFailure(OPEN_GATE, network, 'load', T).error).toBe(NOTIFICATION_MESSAGES.fetchFailed);
    const noToken = new NotificationRequestError(NOTIFICATION_MESSAGES.noToken);
    expect(gateOnFailure(OPEN_GATE, noToken, 'load', T).error).toBe(NOTIFICATION_MESSAGES.noToken);
    // Errors other than a pause or a stop do not hold requests back, and a success clears them.
    const failed = gateOnFailure(OPEN_GATE, http(500), 'load', T);
    expect(gateAllows(failed, T)).toBe(true);
    expect(gateOnSuccess(failed, T)).toEqual(OPEN_GATE);
  });

  it('words failed actions for a toast', () => {
    expect(failureMessage(http(429), 'action')).toBe(NOTIFICATION_MESSAGES.rateLimited);
    expect(failureMessage(http(404, 'Notification not found'), 'action')).toBe('Notification not found');
    expect(failureMessage(http(500), 'action')).toBe(NOTIFICATION_MESSAGES.actionFailed);
    expect(failureMessage(network, 'action')).toBe(NOTIFICATION_MESSAGES.actionFailed);
    expect(failureMessage(http(404), 'load')).toBe(NOTIFICATION_MESSAGES.notAvailable);
  });
});

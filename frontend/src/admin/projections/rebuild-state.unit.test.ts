import { describe, expect, it } from 'vitest';
import type { AdminRebuildState } from '@pawhaven/contracts';
import { newerRebuildState } from './rebuild-state';

const state = (over: Partial<AdminRebuildState>): AdminRebuildState => ({
  rebuildId: 'r1',
  target: 'all',
  state: 'running',
  current: 'adoption',
  index: 1,
  count: 3,
  processed: 0,
  total: 100,
  percent: 0,
  eventsPerSecond: 0,
  etaSeconds: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: null,
  error: null,
  startedBy: 'admin',
  ...over,
});

describe('newerRebuildState', () => {
  it('keeps the further progress of one rebuild, and a finished state over a running one', () => {
    const early = state({ processed: 10 });
    const late = state({ processed: 50 });
    expect(newerRebuildState(early, late)).toBe(late);
    expect(newerRebuildState(late, early)).toBe(late);
    const done = state({ state: 'finished', processed: 100, percent: 100 });
    expect(newerRebuildState(done, late)).toBe(done);
    expect(newerRebuildState(state({ index: 2, processed: 1 }), late)?.index).toBe(2);
  });

  it('prefers the rebuild that started last, and whichever exists', () => {
    const old = state({ state: 'finished' });
    const next = state({ rebuildId: 'r2', startedAt: '2026-01-01T00:05:00.000Z' });
    expect(newerRebuildState(old, next)).toBe(next);
    expect(newerRebuildState(null, next)).toBe(next);
    expect(newerRebuildState(old, undefined)).toBe(old);
    expect(newerRebuildState(null, null)).toBeNull();
  });
});

import type { AdminRebuildState } from '@pawhaven/contracts';

/**
 * Which of two reports of a rebuild is newer: the socket pushes progress, and the projections list (or its
 * polling fallback) answers the state too; a late answer must not move the bar backwards.
 */
export function newerRebuildState(
  a: AdminRebuildState | null | undefined,
  b: AdminRebuildState | null | undefined,
): AdminRebuildState | null {
  if (!a) return b ?? null;
  if (!b) return a;
  if (a.rebuildId !== b.rebuildId) return a.startedAt >= b.startedAt ? a : b;
  const rank = (s: AdminRebuildState) => (s.state === 'running' ? 0 : 1);
  if (rank(a) !== rank(b)) return rank(a) > rank(b) ? a : b;
  if (a.index !== b.index) return a.index > b.index ? a : b;
  return a.processed >= b.processed ? a : b;
}

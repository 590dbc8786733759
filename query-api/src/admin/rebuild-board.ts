import {
  REBUILD_PROGRESS_NOTICE,
  type AdminRebuildState,
  type RebuildProgressNotice,
} from '@pawhaven/contracts';
import type { ChangeNotice } from '@pawhaven/platform';

/**
 * What this query-api process last heard of rebuilds (the `rebuild-progress` change notices the command side
 * publishes): the running or last rebuild, for a reloaded Projections page, with the progress in between. The runner
 * also records each rebuild's start and end in `rebuild_runs`, which `rebuildState` reads when this board knows
 * nothing newer (a process started later); each projection's last failure is kept in the database as well
 * (`recordProjectionError`). The socket gateway feeds it (it hears every notice); one board per database, so apps
 * started side by side in one process (tests) keep theirs apart.
 */
export class RebuildBoard {
  last: AdminRebuildState | null = null;

  record(notice: ChangeNotice) {
    if (notice.kind !== REBUILD_PROGRESS_NOTICE) return;
    const { kind: _kind, ...state } = notice as unknown as RebuildProgressNotice;
    // Notices of one rebuild arrive in order; an older rebuild's late notice never replaces a newer one.
    if (this.last && this.last.rebuildId !== state.rebuildId && state.startedAt < this.last.startedAt) return;
    this.last = state;
  }
}

const boards = new Map<string, RebuildBoard>();

export function rebuildBoardFor(connectionString: string): RebuildBoard {
  let board = boards.get(connectionString);
  if (!board) boards.set(connectionString, (board = new RebuildBoard()));
  return board;
}

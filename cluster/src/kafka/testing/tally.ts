import { defineReadModel } from '@pawhaven/platform';

/**
 * The bus tests' read model: per stream, how many events it saw and whether any came out of the stream's order.
 * It reads only its own stream's row (`order: 'stream'`), as a read model consuming a partitioned bus must.
 */
export const TALLY_TABLE = `CREATE TABLE bus_tally (
  stream_id text PRIMARY KEY, events int NOT NULL, last_revision int NOT NULL, out_of_order int NOT NULL
)`;

type Tally = { stream_id: string; events: number; last_revision: number; out_of_order: number };

export const tallyProjection = defineReadModel<{ bus_tally: Tally }>({
  name: 'bus_tally',
  order: 'stream',
  tables: { bus_tally: { key: ['stream_id'] } },
  handles: ['Tallied'],
  readsPersonalData: false,
  evolve({ bus_tally }, event) {
    const row = bus_tally.get(event.streamId);
    const revision = Number(event.streamRevision);
    bus_tally.put({
      stream_id: event.streamId,
      events: (row?.events ?? 0) + 1,
      last_revision: revision,
      out_of_order: (row?.out_of_order ?? 0) + (row && revision !== row.last_revision + 1 ? 1 : 0),
    });
  },
});

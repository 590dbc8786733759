import { parentPort, workerData } from 'node:worker_threads';
import knexFactory from 'knex';
import type { EventStore, LogPosition, ReadAllOptions, RecordedEvent } from '../event-store/event-store';
import type { FoldThreadData, FromFoldThread, ToFoldThread } from './fold-thread';
import type { Projection } from './projection';
import type { PersonalFieldOpener } from '../personal-data/encrypting-event-store';
import { foldsOf, openSome, type FoldFeed } from './rebuild-fold-pass';
import { writeFolds } from './write-folds';
import { readLiveAhead, type LiveSnapshot } from './write-in-place';

/** The fold thread itself (see fold-thread.ts): folds the events it is sent, then writes its projections. */

const port = parentPort!;
const data = workerData as FoldThreadData;
const send = (message: FromFoldThread) => port.postMessage(message);
const failed = (error: unknown) => {
  const e = error instanceof Error ? error : new Error(String(error));
  send({ kind: 'failed', message: e.message, stack: e.stack });
};

/** Catch-up reads, answered by the reading thread: batches of events until the end (or an error). */
const reads = new Map<number, (batch: RecordedEvent[] | { end: true; error?: string }) => void>();
let nextRead = 0;

const store: Pick<EventStore, 'readAll'> = {
  async *readAll(from: LogPosition, opts: ReadAllOptions = {}) {
    const id = nextRead++;
    const queue: (RecordedEvent[] | { end: true; error?: string })[] = [];
    let wake: (() => void) | null = null;
    reads.set(id, (item) => {
      queue.push(item);
      wake?.();
    });
    send({ kind: 'read', id, from, opts });
    try {
      for (;;) {
        while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        const item = queue.shift()!;
        if (!Array.isArray(item)) {
          if (item.error) throw new Error(item.error);
          return;
        }
        yield* item;
      }
    } finally {
      reads.delete(id);
    }
  },
};

async function load(): Promise<Projection[]> {
  return Promise.all(
    data.projections.map(async ({ name, source }) => {
      const exported = ((await import(source.module)) as Record<string, unknown>)[source.exportName];
      const candidates = (Array.isArray(exported) ? exported : [exported]) as Projection[];
      const projection = candidates.find((p) => p?.name === name);
      if (!projection?.fold)
        throw new Error(`${source.module} exports no projection ${name} with a fold as ${source.exportName}`);
      return projection;
    }),
  );
}

const controller = new AbortController();
/** Opens the personal fields of the events of `opens` it is sent sealed. */
const opens = new Set(data.opens);
const opener =
  data.opener && opens.size > 0
    ? ((await import(data.opener.module)) as Record<string, (...args: unknown[]) => PersonalFieldOpener>)[
        data.opener.exportName
      ]!(...data.opener.args)
    : null;
const knex = knexFactory({ client: 'pg', connection: data.connection, pool: { min: 0, max: 4 } });
/**
 * This thread has time to spare while the log is read: it reads its projections' live rows meanwhile (one after
 * another), so that their swaps need not, if nothing was projected since.
 */
const ahead = new Map<string, Promise<LiveSnapshot | null>>();
let folds: FoldFeed[] = [];
let feed: (event: RecordedEvent) => void = () => {};
let broken = false;

/** Messages wait here until the projections are loaded, then are handled in order. */
let ready: Promise<void> = load().then(
  (projections) => {
    ({ folds, feed } = foldsOf(projections));
    let previous: Promise<unknown> = Promise.resolve();
    for (const { name } of data.projections) {
      const projection = projections.find((p) => p.name === name)!;
      const read = previous.then(() => readLiveAhead(knex, projection)).catch(() => null);
      ahead.set(name, read);
      previous = read;
    }
  },
  (error: unknown) => {
    broken = true;
    failed(error);
  },
);

async function write(replayed: Extract<ToFoldThread, { kind: 'write' }>['replayed'], started: number) {
  try {
    const results = await writeFolds(
      knex,
      store,
      folds,
      replayed,
      started,
      { signal: controller.signal },
      { writing: (name) => send({ kind: 'writing', name }), report: () => {} },
      ahead,
    );
    send({ kind: 'written', results: results.map((r) => ({ ...r, foldThread: true })) });
  } catch (error) {
    failed(error);
  } finally {
    await knex.destroy();
    await opener?.close();
  }
}

port.on('message', (m: ToFoldThread) => {
  switch (m.kind) {
    case 'read-batch':
      reads.get(m.id)?.(m.events);
      return;
    case 'read-end':
      reads.get(m.id)?.({ end: true, error: m.error });
      return;
    case 'abort':
      controller.abort();
      return;
    case 'events':
      ready = ready.then(async () => {
        if (broken) return;
        try {
          const events = opener ? await openSome(opener, m.events, opens) : m.events;
          for (const event of events) feed(event);
        } catch (error) {
          broken = true;
          failed(error);
        }
      });
      return;
    case 'write': {
      // When the rebuild started, on this thread's clock (its folds may still be busy): durations count from there.
      const started = performance.now() - m.elapsedMs;
      ready = ready.then(() => (broken ? undefined : write(m.replayed, started)));
      return;
    }
    default: {
      const unknown: never = m;
      throw new Error(`unknown message for the fold thread: ${JSON.stringify(unknown)}`);
    }
  }
});

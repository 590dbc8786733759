import { setTimeout as sleep } from 'node:timers/promises';
import { RefusedWithEvents } from './errors';
import {
  ConcurrencyError,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from './event-store/event-store';

/** The shape every aggregate follows: pure decide + evolve over its own event and command unions. */
export type Decider<State, Command, Event extends { type: string; data: unknown }> = {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State) => Event[];
};

export type CommandResult<Event> = { events: Event[]; position: bigint | null; nextRevision: bigint };

/** How often a decision made on a stale revision is made again before the conflict reaches the user. */
export const STALE_REVISION_ATTEMPTS = 12;

export async function loadState<State, Event extends { type: string; data: unknown }>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
): Promise<{ state: State; revision: bigint; events: RecordedEvent[] }> {
  let state = decider.initialState();
  let revision = -1n;
  const events: RecordedEvent[] = [];
  for await (const e of store.readStream(streamId)) {
    state = decider.evolve(state, { type: e.type, data: e.data } as Event);
    revision = e.streamRevision;
    events.push(e);
  }
  return { state, revision, events };
}

/**
 * Load → decide → append with the revision we decided on. Every command of every aggregate goes through here.
 *
 * A concurrent append to the same stream (another sign-in of the same account, the owner's other tab, another
 * user's request on the same ad) only means our decision was made on a stale revision: we load again and decide
 * again, so nobody sees a conflict they did not cause. A real conflict then comes from the rules themselves
 * (e.g. 409 'already answered' for the losing accept). Only a stream so contended that every attempt loses
 * answers 409 (ConcurrencyError). Nothing is appended when decide refuses.
 */
export async function handleCommand<State, Command, Event extends { type: string; data: unknown }>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command | ((state: State) => Command),
  metadata: EventMetadata,
): Promise<CommandResult<Event> & { state: State }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await decideAndAppend(store, streamId, decider, command, metadata);
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= STALE_REVISION_ATTEMPTS) throw error;
      // Spread the retries of many writers on one stream so they do not collide again in lock step.
      if (attempt > 2) await sleep(Math.random() * Math.min(2 ** attempt, 50));
    }
  }
}

async function decideAndAppend<State, Command, Event extends { type: string; data: unknown }>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command | ((state: State) => Command),
  metadata: EventMetadata,
): Promise<CommandResult<Event> & { state: State }> {
  const { state, revision } = await loadState(store, streamId, decider);
  const expected = revision === -1n ? ('no_stream' as const) : revision;
  const cmd = typeof command === 'function' ? (command as (s: State) => Command)(state) : command;
  let events: Event[];
  try {
    events = decider.decide(cmd, state);
  } catch (refusal) {
    if (!(refusal instanceof RefusedWithEvents)) throw refusal;
    const recorded: NewEvent[] = refusal.events.map((e) => ({ type: e.type, data: e.data, metadata }));
    await store.append(streamId, recorded, expected);
    throw refusal.error;
  }
  if (events.length === 0) return { events, position: null, nextRevision: revision, state };
  const toAppend: NewEvent[] = events.map((e) => ({ type: e.type, data: e.data, metadata }));
  const result = await store.append(streamId, toAppend, expected);
  const next = events.reduce(decider.evolve, state);
  return { events, position: result.position, nextRevision: result.nextRevision, state: next };
}

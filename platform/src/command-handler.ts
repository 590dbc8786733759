import { RefusedWithEvents } from './errors';
import type { EventMetadata, EventStore, NewEvent, RecordedEvent } from './event-store/event-store';

/** The shape every aggregate follows: pure decide + evolve over its own event and command unions. */
export type Decider<State, Command, Event extends { type: string; data: unknown }> = {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State) => Event[];
};

export type CommandResult<Event> = { events: Event[]; position: bigint | null; nextRevision: bigint };

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
 * Load → decide → append with the revision we decided on. A concurrent writer makes the append throw
 * ConcurrencyError (HTTP 409); nothing is appended when decide refuses.
 */
export async function handleCommand<State, Command, Event extends { type: string; data: unknown }>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command | ((state: State) => Command),
  metadata: EventMetadata,
): Promise<CommandResult<Event> & { state: State }> {
  const { state, revision } = await loadState(store, streamId, decider);
  const cmd = typeof command === 'function' ? (command as (s: State) => Command)(state) : command;
  let events: Event[];
  try {
    events = decider.decide(cmd, state);
  } catch (refusal) {
    if (!(refusal instanceof RefusedWithEvents)) throw refusal;
    const recorded: NewEvent[] = refusal.events.map((e) => ({ type: e.type, data: e.data, metadata }));
    await store.append(streamId, recorded, revision === -1n ? 'no_stream' : revision);
    throw refusal.error;
  }
  if (events.length === 0) return { events, position: null, nextRevision: revision, state };
  const toAppend: NewEvent[] = events.map((e) => ({ type: e.type, data: e.data, metadata }));
  const result = await store.append(streamId, toAppend, revision === -1n ? 'no_stream' : revision);
  const next = events.reduce(decider.evolve, state);
  return { events, position: result.position, nextRevision: result.nextRevision, state: next };
}

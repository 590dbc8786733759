import { ANY, NO_STREAM, START as KURRENT_START, WrongExpectedVersionError } from '@kurrent/kurrentdb-client';
import type { ResolvedEvent } from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import { comparePositions, START } from '../event-store';
import {
  eventTypeRegex,
  fromKurrentMetadata,
  fromResolved,
  isOurs,
  isStreamNotFound,
  isTransient,
  readPositionAfter,
  toKurrentMetadata,
  toLogPosition,
  toStreamState,
} from './kurrentdb-mapping';

const stored = (over: Record<string, unknown> = {}): ResolvedEvent =>
  ({
    event: {
      streamId: 'pet-1',
      id: '3f1c7a1e-2d7b-4f7e-9a55-5b7f6c1d2e3f',
      isJson: true,
      revision: 4n,
      type: 'PetListed',
      created: new Date('2026-11-27T10:00:00Z'),
      data: { name: 'Bilo' },
      metadata: { actorId: 'u-1', $correlationId: 'c-1', correlationId: 'c-1' },
      position: { commit: 900n, prepare: 950n },
      ...over,
    },
  }) as unknown as ResolvedEvent;

describe('KurrentDB mapping', () => {
  it('maps expected revisions 1:1', () => {
    expect(toStreamState('no_stream')).toBe(NO_STREAM);
    expect(toStreamState('any')).toBe(ANY);
    expect(toStreamState(7n)).toBe(7n);
  });

  it('maps $all positions so the port orders them as KurrentDB does: commit, then prepare', () => {
    const a = toLogPosition({ commit: 100n, prepare: 100n });
    const b = toLogPosition({ commit: 100n, prepare: 180n });
    const c = toLogPosition({ commit: 300n, prepare: 300n });
    expect(a).toEqual({ transactionId: 100n, position: 100n });
    expect(comparePositions(a, b)).toBe(-1);
    expect(comparePositions(b, c)).toBe(-1);
    expect(comparePositions(c, c)).toBe(0);
  });

  it('reads after the start from the start, after a position from that position', () => {
    expect(readPositionAfter(START)).toBe(KURRENT_START);
    expect(readPositionAfter({ transactionId: 12n, position: 34n })).toEqual({ commit: 12n, prepare: 34n });
  });

  it("keeps KurrentDB's own events out: system streams, $-types, projection links", () => {
    expect(isOurs('pet-1', 'PetListed')).toBe(true);
    expect(isOurs('$$pet-1', '$metadata')).toBe(false);
    expect(isOurs('$ce-pet', '$>')).toBe(false);
    expect(isOurs('$stats-127.0.0.1:2113', 'StatsCollected')).toBe(false);
  });

  it('filters event types exactly on the server, escaping what a regex would read otherwise', () => {
    const re = new RegExp(eventTypeRegex(['PetListed', 'A.B']));
    expect(re.test('PetListed')).toBe(true);
    expect(re.test('A.B')).toBe(true);
    expect(re.test('AxB')).toBe(false);
    expect(re.test('PetListedAgain')).toBe(false);
    const ours = new RegExp(eventTypeRegex());
    expect(ours.test('PetListed')).toBe(true);
    expect(ours.test('$>')).toBe(false);
  });

  it("carries correlation and causation in KurrentDB's own fields too, and reads back only ours", () => {
    const m = toKurrentMetadata({ actorId: 'u-1', correlationId: 'c-1', causationId: 'e-0' });
    expect(m).toEqual({
      actorId: 'u-1',
      correlationId: 'c-1',
      causationId: 'e-0',
      $correlationId: 'c-1',
      $causationId: 'e-0',
    });
    expect(fromKurrentMetadata(m)).toEqual({ actorId: 'u-1', correlationId: 'c-1', causationId: 'e-0' });
    expect(fromKurrentMetadata(undefined)).toEqual({});
    expect(toKurrentMetadata(undefined)).toEqual({});
  });

  it('records a stored event as the port does, its position from the $all position', () => {
    expect(fromResolved(stored())).toEqual({
      eventId: '3f1c7a1e-2d7b-4f7e-9a55-5b7f6c1d2e3f',
      streamId: 'pet-1',
      streamRevision: 4n,
      type: 'PetListed',
      data: { name: 'Bilo' },
      metadata: { actorId: 'u-1', correlationId: 'c-1' },
      position: 950n,
      transactionId: 900n,
      createdAt: new Date('2026-11-27T10:00:00Z'),
    });
    const binary = fromResolved(
      stored({ isJson: false, data: new TextEncoder().encode(JSON.stringify({ name: 'Moti' })) }),
    );
    expect(binary?.data).toEqual({ name: 'Moti' });
    expect(fromResolved(stored({ streamId: '$ce-pet', type: '$>' }))).toBeNull();
    expect(fromResolved({} as ResolvedEvent)).toBeNull();
  });

  it('refuses a server too old to give positions on stream reads, saying which version it needs', () => {
    expect(() => fromResolved(stored({ position: undefined }))).toThrow(/22\.6 or later/);
  });

  it('tells the errors worth trying again from the others', () => {
    const typed = (type: string) => Object.assign(new Error(type), { type });
    expect(isTransient(typed('unavailable'))).toBe(true);
    expect(isTransient(typed('not-leader'))).toBe(true);
    expect(isTransient(typed('deadline-exceeded'))).toBe(true);
    expect(isTransient(typed('access-denied'))).toBe(false);
    expect(
      isTransient(
        new WrongExpectedVersionError(undefined, { streamName: 's', current: 1n, expected: 0n } as never),
      ),
    ).toBe(false);
    expect(isTransient(new Error('boom'))).toBe(false);
    expect(isStreamNotFound(typed('stream-not-found'))).toBe(true);
    expect(isStreamNotFound(typed('unavailable'))).toBe(false);
  });
});

import { expect } from 'vitest';
import { HttpError, RefusedWithEvents } from '../errors';
import type { Decider } from '../command-handler';

/**
 * Given events / when command / then events or error, for pure deciders:
 *   spec(given(...)).when(cmd).then([...]) or .thenRefuses(409, 'message').
 */
export function deciderSpec<S, C, E extends { type: string; data: unknown }>(decider: Decider<S, C, E>) {
  return (...given: E[]) => ({
    when(command: C) {
      const run = () => decider.decide(command, given.reduce(decider.evolve, decider.initialState()));
      return {
        then(expected: E[]) {
          expect(run()).toEqual(expected);
        },
        thenNothing() {
          expect(run()).toEqual([]);
        },
        /** Refused with this status and message; `recording` are events still stored (e.g. a counted attempt). */
        thenRefuses(status: number, message: string, recording?: E[]) {
          let thrown: unknown;
          try {
            run();
          } catch (e) {
            thrown = e;
          }
          const error = thrown instanceof RefusedWithEvents ? thrown.error : thrown;
          expect(error, 'expected the command to be refused').toBeInstanceOf(HttpError);
          expect({ status: (error as HttpError).status, message: (error as HttpError).message }).toEqual({
            status,
            message,
          });
          expect(thrown instanceof RefusedWithEvents ? thrown.events : []).toEqual(recording ?? []);
        },
      };
    },
  });
}

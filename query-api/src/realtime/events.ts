import type { Server, Socket } from 'socket.io';
import type { z } from 'zod';
import { assertSafeInput, errorAnswer, logger } from '@pawhaven/platform';

/** What a refused or failed event is acknowledged with: the HTTP answer's status and message. */
type SocketRefusal = { ok: false; status: number; message: string };

const UNKNOWN_EVENT = 'Unknown event';

/** One event a client may emit: the shape of its payload (its first argument) and what it does. */
export type SocketEvent<S extends z.ZodType = z.ZodType> = {
  payload: S;
  /** Runs only for a payload that passed the checks; what it returns is the acknowledgement. */
  handle(socket: Socket, payload: z.output<S>): Promise<object> | object;
};

/** Every event of the socket gateway, by name. */
export type SocketEvents = Record<string, SocketEvent>;

/** Keeps an event's payload type attached to its handler. */
export const socketEvent = <S extends z.ZodType>(
  payload: S,
  handle: SocketEvent<S>['handle'],
): SocketEvent<S> => ({ payload, handle });

/**
 * The one error boundary of the socket gateway: what `work` answers, or the refusal HTTP would answer for what it
 * threw (`errorAnswer`: 400 bad input or a PostgreSQL data exception, 409 a lost race, an HttpError's own status,
 * 503 the database away, 500 otherwise, logged). Nothing escapes it.
 */
async function answerOf(work: () => Promise<object> | object): Promise<object> {
  try {
    return await work();
  } catch (error) {
    const { status, message } = errorAnswer(error);
    return { ok: false, status, message } satisfies SocketRefusal;
  }
}

type Ack = (answer: object) => void;

/** socket.io passes the client's acknowledgement callback last, when it asked for one. */
const takeAck = (args: unknown[]): Ack | undefined =>
  typeof args[args.length - 1] === 'function' ? (args.pop() as Ack) : undefined;

const acknowledge = (ack: Ack | undefined, answer: object) => {
  try {
    ack?.(answer);
  } catch (error) {
    logger.warn({ err: error }, 'socket acknowledgement failed');
  }
};

/**
 * Every event a client may emit goes through here (never `socket.on` directly): its payload is checked with the rules
 * of HTTP input (no NUL or broken Unicode, then the event's zod schema) before the handler runs, the handler runs
 * inside the error boundary, and a client that asked for an acknowledgement always gets one, the handler's answer or
 * `{ ok: false, status, message }`. An event nobody registered is answered 404. No payload, in any event present or
 * future, can end the process.
 */
export function registerSocketEvents(socket: Socket, events: SocketEvents): void {
  for (const [name, event] of Object.entries(events)) {
    socket.on(name, (...args: unknown[]) => {
      const ack = takeAck(args);
      void answerOf(() => {
        assertSafeInput(args[0], '');
        return event.handle(socket, event.payload.parse(args[0]));
      }).then((answer) => acknowledge(ack, answer));
    });
  }
  socket.onAny((name: unknown, ...args: unknown[]) => {
    if (typeof name === 'string' && Object.hasOwn(events, name)) return;
    acknowledge(takeAck(args), { ok: false, status: 404, message: UNKNOWN_EVENT } satisfies SocketRefusal);
  });
}

/**
 * The handshake's checks (`io.use`), through the same boundary: a refusal reaches the client as `connect_error` with
 * its message and `data.status` (401 for a missing or ended session, 503 while the database is away).
 */
export function useHandshakeCheck(io: Server, check: (socket: Socket) => Promise<void>): void {
  io.use((socket, next) => {
    void answerOf(async () => {
      await check(socket);
      return { ok: true };
    }).then((answer) => {
      const refusal = answer as Partial<SocketRefusal>;
      if (refusal.ok !== false) return next();
      next(Object.assign(new Error(refusal.message), { data: { status: refusal.status } }));
    });
  });
}

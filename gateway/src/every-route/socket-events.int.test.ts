import { randomUUID } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  startTestApp,
  type RegisteredUser,
  type TestApp,
  type TestSocket,
} from '@pawhaven/testing';

/**
 * Issue 20 point 1: one socket event (`joinConversation` with a NUL) ended the whole process. Every event the server
 * answers, read off a connected server socket so that an event added later is fuzzed too, gets hostile payloads; each
 * must be acknowledged `{ ok: false, status: 4xx, message }`, and the server must keep serving HTTP and sockets.
 */

/**
 * socket.io's own: names a client cannot emit, and 'error', where socket.io keeps a no-op listener so that a client
 * emitting it cannot throw.
 */
const SOCKET_IO_OWN = new Set([
  'connect',
  'connect_error',
  'disconnect',
  'disconnecting',
  'newListener',
  'removeListener',
  'error',
]);

const nested = (depth: number, leaf: unknown, wrap: (inner: unknown) => unknown) => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
};

const NUL = 'abc\u0000def';
/** Payloads that no event may accept. `undefined`: the event is emitted with no payload at all. */
const HOSTILE: [string, unknown][] = [
  ['a NUL', NUL],
  ['a lone high surrogate', 'pet\ud800name'],
  ['a lone low surrogate', '\udc00'],
  ['a NUL in every field', { conversationId: NUL, text: NUL, userId: NUL, clientMessageId: NUL }],
  ['a NUL in a key', { ['conversation\u0000Id']: randomUUID() }],
  ['lone surrogates in fields', { conversationId: `${randomUUID()}\ud800`, text: '\udfff' }],
  ['a number', 42],
  ['a boolean', true],
  ['null', null],
  ['no payload', undefined],
  ['an array', [randomUUID(), 'two', null]],
  ['an empty object', {}],
  ['fields of the wrong types', { conversationId: 12, text: ['hi'], clientMessageId: {}, senderId: false }],
  ['text that is no id', 'abc'],
  ['a conversation nobody is in', { conversationId: randomUUID(), text: 'hello' }],
  ['a huge string (0.9 MB)', 'x'.repeat(900_000)],
  ['a huge field (0.9 MB)', { conversationId: randomUUID(), text: 'x'.repeat(900_000) }],
  // As deep as the client can encode; deeper ones go as raw frames below.
  ['an array nested 2,000 deep', nested(2000, 'x', (inner) => [inner])],
  ['an object nested 2,000 deep', nested(2000, NUL, (inner) => ({ conversationId: inner }))],
];

let t: TestApp;
let alice: RegisteredUser;
let bob: RegisteredUser;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob] = await Promise.all([t.api.registerVerifiedUser(), t.api.registerVerifiedUser()]);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

const connect = async (user: RegisteredUser): Promise<TestSocket> => {
  const connected = await connectSocket(t.url, user.token);
  sockets.push(connected.socket);
  return connected;
};

/** The events the server answers on a connected socket: exactly what a client can reach. */
function registeredEvents(client: Socket): string[] {
  const server = t.app.io.of('/').sockets.get(client.id!);
  if (!server) throw new Error('the server has no socket for this client');
  return server
    .eventNames()
    .map(String)
    .filter((name) => !SOCKET_IO_OWN.has(name));
}

const ack = (socket: Socket, event: string, payload: unknown) =>
  (payload === undefined
    ? socket.timeout(3000).emitWithAck(event)
    : socket.timeout(3000).emitWithAck(event, payload)
  ).catch((error: Error) => `no acknowledgement (${error.message})`);

describe('every socket event', () => {
  it('answers every hostile payload { ok: false, status: 4xx, message } and the server keeps serving', async () => {
    const { socket } = await connect(alice);
    const events = registeredEvents(socket);
    // The chat's and the notifications' events at least; any other registered one is fuzzed all the same.
    expect(events).toEqual(
      expect.arrayContaining(['join', 'joinConversation', 'sendMessage', 'userTyping', 'presence']),
    );

    const problems: string[] = [];
    for (const event of events)
      for (const [what, payload] of HOSTILE) {
        const answer = (await ack(socket, event, payload)) as {
          ok?: unknown;
          status?: unknown;
          message?: unknown;
        };
        const fine =
          typeof answer === 'object' &&
          answer !== null &&
          answer.ok === false &&
          typeof answer.status === 'number' &&
          answer.status >= 400 &&
          answer.status < 500 &&
          typeof answer.message === 'string' &&
          answer.message.length > 0;
        if (!fine) problems.push(`${event} with ${what}: ${JSON.stringify(answer).slice(0, 200)}`);
      }
    expect(problems).toEqual([]);

    // No acknowledgement asked for, or something that is not one: nothing to answer, nothing breaks.
    for (const event of events) {
      socket.emit(event, NUL);
      socket.emit(event, { conversationId: NUL }, 'not a function', 42);
    }
    // Nested 100,000 deep: more than any recursion survives, sent as a raw frame (the client could not encode it).
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    for (const event of events) socket.io.engine.write(`2[${JSON.stringify(event)},${deep}]`);
    // An event nobody registered is answered too.
    expect(await ack(socket, 'noSuchEvent', {})).toEqual({
      ok: false,
      status: 404,
      message: 'Unknown event',
    });

    // The socket still works.
    expect(socket.connected).toBe(true);
    expect(await ack(socket, 'join', alice.user._id)).toEqual({ ok: true });
  }, 120_000);

  it('closes a connection whose frame is over 1 MB, and nothing else', async () => {
    const { socket } = await connect(alice);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    socket.emit('sendMessage', { conversationId: randomUUID(), text: 'x'.repeat(2_000_000) });
    expect(['transport close', 'transport error']).toContain(await closed);
    const health = await t.api.get('/api/health');
    expect(health.status).toBe(200);
  });

  it('refuses a bad handshake with a message and a 4xx status', async () => {
    for (const auth of [{ token: NUL }, { token: 42 }, { token: 'x'.repeat(100_000) }, {}]) {
      const refused = await connectSocket(t.url, auth.token as string).then(
        () => null,
        (error: Error & { data?: { status?: number } }) => error,
      );
      expect(refused?.message).toBeTruthy();
      expect(refused?.data?.status).toBeGreaterThanOrEqual(400);
      expect(refused?.data?.status).toBeLessThan(500);
    }
  });

  it('after all of it, serves HTTP and delivers a message from one socket to another', async () => {
    const started = await t.api.post(
      '/api/conversations',
      { senderId: alice.user._id, receiverId: bob.user._id },
      alice.token,
    );
    expect(started.status).toBe(200);
    const conversationId = started.body.data._id as string;
    // Membership is read from the read model: wait until it holds the new conversation.
    await t.api.get(`/api/conversations/${alice.user._id}`, alice.token, {
      'X-Consistent-After': started.body.position,
    });
    const a = await connect(alice);
    const b = await connect(bob);
    expect(await ack(b.socket, 'join', bob.user._id)).toEqual({ ok: true });
    expect(await ack(a.socket, 'joinConversation', conversationId)).toEqual({ ok: true });
    const sent = (await ack(a.socket, 'sendMessage', { conversationId, text: 'still here' })) as {
      ok: boolean;
    };
    expect(sent).toMatchObject({ ok: true, message: { text: 'still here' } });
    await b.waitFor('getMessage', (m) => m.text === 'still here');
    expect((await t.api.get('/api/health')).status).toBe(200);
  });
});

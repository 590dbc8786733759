import { io as connectClient, type Socket } from 'socket.io-client';

/**
 * A socket.io client over WebSocket only, without reconnection, resolved once connected (rejected on its
 * connect_error). `localAddress`: the client end's address (any 127.x.y.z on Linux), which a proxy balancing by
 * client address (nginx's hash of it) sees.
 */
export const connect = (url: string, auth?: { token: string }, extra: { localAddress?: string } = {}) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connectClient(url, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      ...(auth ? { auth } : {}),
      ...(extra.localAddress ? { localAddress: extra.localAddress, forceNew: true } : {}),
    });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });

/** Runs `one(i)` for i < `count`, `concurrency` at a time; answers the results in order. */
export async function connectAll<T>(
  count: number,
  concurrency: number,
  one: (i: number) => Promise<T>,
): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await one(i);
      }
    }),
  );
  return out;
}

/**
 * Until a socket hears the message `key` names: the caller's getMessage listener calls `arrivals.get(key)`. Rejects
 * with 'lost' after `ms`.
 */
export function arrival(arrivals: Map<string, () => void>, key: string, ms = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      arrivals.delete(key);
      reject(new Error('lost'));
    }, ms);
    arrivals.set(key, () => {
      clearTimeout(timer);
      arrivals.delete(key);
      resolve();
    });
  });
}

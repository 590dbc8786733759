import type { Pool, PoolClient } from 'pg';
import { noteIfDatabaseUnavailable } from '@pawhaven/platform';

/**
 * The pool as @socket.io/postgres-adapter should see it. The adapter checks a client out of the pool for its LISTEN and
 * keeps it: it listens for 'end' to reconnect, but attaches no 'error' listener (a terminated connection would throw
 * and end the process) and never releases a client it lost, so each lost connection would keep a pool slot forever
 * and the pool's end would wait for it. Here a lost client is released as broken (the pool discards it), once, and
 * the adapter's own 'end' handler then checks out a new one.
 */
export function adapterPool(pool: Pool): Pool {
  const connect = async (): Promise<PoolClient> => {
    const client = await pool.connect();
    // This checkout's release: the pool gives the client a new one when it lends it out again.
    const release = client.release;
    let released = false;
    const done = (error?: Error | boolean) => {
      if (released) return;
      released = true;
      // Ours only while the adapter holds the client: a client back in the pool may be lent to someone else.
      client.removeListener('error', lost);
      client.removeListener('end', ended);
      client.release = release;
      release(error);
    };
    const lost = (error: Error) => {
      noteIfDatabaseUnavailable(error, 'socket.io adapter');
      done(error);
    };
    const ended = () => done(true);
    client.on('error', lost);
    client.once('end', ended);
    client.release = done;
    return client;
  };
  // The adapter calls nothing else (0.5: connect() for its LISTEN, query() for everything else).
  const facade: Pick<Pool, 'connect' | 'query'> = {
    connect: connect as Pool['connect'],
    query: pool.query.bind(pool) as Pool['query'],
  };
  return facade as Pool;
}

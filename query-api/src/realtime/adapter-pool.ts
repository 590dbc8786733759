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
    const release = client.release.bind(client);
    let released = false;
    client.release = (error?: Error | boolean) => {
      if (released) return;
      released = true;
      release(error);
    };
    client.on('error', (error) => {
      noteIfDatabaseUnavailable(error, 'socket.io adapter');
      client.release(error);
    });
    client.once('end', () => client.release(true));
    return client;
  };
  // The adapter calls nothing else (0.5: connect() for its LISTEN, query() for everything else).
  const facade: Pick<Pool, 'connect' | 'query'> = {
    connect: connect as Pool['connect'],
    query: pool.query.bind(pool) as Pool['query'],
  };
  return facade as Pool;
}

import pg from 'pg';
import { logger } from '../logger';
import { noteDatabaseAvailable, noteIfDatabaseUnavailable } from './availability';
import { CONNECTION_SETTINGS } from './database';

export type ListenOptions = {
  /** A notification on one of the channels. An error it throws is logged, never the end of the connection. */
  onNotification(message: pg.Notification): void;
  /**
   * The connection listens (again): called after every (re)connection, before it counts as listening. Notifications
   * sent while nobody listened are lost, so an owner that must not miss any catches up here. If it throws, the
   * connection is dropped and tried again. `client` is the listening connection (it may run queries too).
   */
  onListening?(reconnected: boolean, client: pg.Client): Promise<void> | void;
  /** The connection was lost; it is being re-established. */
  onLost?(): void;
};

export type Listener = {
  /** True while the connection listens. */
  readonly listening: boolean;
  stop(): Promise<void>;
};

/** How soon a lost listener tries again: quickly at first, then every 2 s while the database stays away. */
const retryDelay = (failures: number) => Math.min(100 * 2 ** failures, 2000);

/**
 * A LISTEN connection of its own that outlives its database: a lost connection (a restart, a failover,
 * pg_terminate_backend, the network) is re-established by itself until `stop()`. The first connection is made before
 * this answers, so a start fails when the database is not there; after that nothing it does can end the process.
 */
export async function listenTo(
  connectionString: string,
  channels: readonly string[],
  opts: ListenOptions,
): Promise<Listener> {
  let stopped = false;
  let current: pg.Client | undefined;
  let live: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;

  const connect = async (reconnected: boolean): Promise<void> => {
    const client = new pg.Client({ connectionString, ...CONNECTION_SETTINGS });
    let ready = false;
    let gone = false;
    let told = false;
    const drop = (error: unknown) => {
      if (gone) return;
      gone = true;
      if (current === client) current = undefined;
      if (live === client) live = undefined;
      client.end().catch(() => {});
      if (!ready || stopped) return; // a failed attempt: its caller retries
      noteIfDatabaseUnavailable(error, `LISTEN ${channels.join(', ')}`);
      opts.onLost?.();
      retry();
    };
    // node-postgres emits 'error' and then 'end' for one loss; without a listener either would end the process.
    client.on('error', drop);
    client.on('end', () => drop(new Error('Connection terminated unexpectedly')));
    client.on('notification', (message) => {
      try {
        opts.onNotification(message);
      } catch (error) {
        logger.error({ err: error, channel: message.channel }, 'a notification could not be handled');
      }
    });
    try {
      await client.connect();
      // Our own channel names (identifiers, not input).
      for (const channel of channels) await client.query(`LISTEN ${channel}`);
      if (stopped) {
        gone = true;
        await client.end().catch(() => {});
        return;
      }
      current = client;
      told = true;
      await opts.onListening?.(reconnected, client);
      if (gone) throw new Error('Connection terminated unexpectedly');
      ready = true;
      live = client;
    } catch (error) {
      drop(error);
      if (told) opts.onLost?.(); // it may have counted itself listening already
      throw error;
    }
  };

  const retry = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (stopped) return;
      connect(true).then(
        () => {
          failures = 0;
          noteDatabaseAvailable();
        },
        (error: unknown) => {
          if (stopped) return;
          failures++;
          // Said once (the database away is noted once for everyone); tried again until it works.
          if (!noteIfDatabaseUnavailable(error, `LISTEN ${channels.join(', ')}`) && failures === 1)
            logger.warn({ err: error, channels }, 'could not listen again; retrying');
          retry();
        },
      );
    }, retryDelay(failures));
    timer.unref();
  };

  await connect(false);
  return {
    get listening() {
      return live !== undefined && !stopped;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const client = current;
      current = undefined;
      live = undefined;
      await client?.end().catch(() => {});
    },
  };
}

import type { Knex } from 'knex';
import { listenTo, type Listener } from '../db/listen';
import { PROJECTIONS_CHANNEL } from './checkpoints';

type Waiter = {
  target: { transactionId: bigint; position: bigint };
  names: string[];
  resolve: (ok: boolean) => void;
};

/**
 * Read-your-writes for query-api: waits (bounded) until the named projections have passed the position a
 * command returned. It listens to the projectors' NOTIFY, so nobody polls.
 */
export class ConsistencyWaiter {
  private readonly checkpoints = new Map<string, { transactionId: bigint; position: bigint }>();
  /** Counts the commits (and rebuilds) heard per projection: what `stateOf` is made of. */
  private readonly generations = new Map<string, number>();
  private readonly waiters = new Set<Waiter>();
  private listener?: Listener;
  private listening = false;
  private stopped = false;

  constructor(
    private readonly knex: Knex,
    private readonly connectionString: string,
    private readonly allNames: readonly string[],
  ) {}

  async start(): Promise<void> {
    const listener = await listenTo(this.connectionString, [PROJECTIONS_CHANNEL], {
      onNotification: (msg) => {
        if (!msg.payload) return;
        const n = JSON.parse(msg.payload) as { names: string[]; transactionId: string; position: string };
        for (const name of n.names) {
          this.checkpoints.set(name, {
            transactionId: BigInt(n.transactionId),
            position: BigInt(n.position),
          });
          this.bump(name);
        }
        this.settle();
      },
      onListening: async () => {
        await this.refresh();
        // Whatever committed while nobody listened is covered: every state seen before is now another one.
        for (const name of this.allNames) this.bump(name);
        this.listening = true;
        this.settle();
      },
      // Until the listener is back, nobody may trust `stateOf`: changes made meanwhile would go unheard.
      onLost: () => (this.listening = false),
    });
    if (this.stopped) await listener.stop();
    else this.listener = listener;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    for (const w of this.waiters) w.resolve(false);
    this.waiters.clear();
    await this.listener?.stop();
  }

  /**
   * A token that changes whenever any of the named projections commits or is rebuilt, as far as this process has
   * heard; null while it cannot hear them (listener down). Read before a query, it keys what the query answered:
   * an answer stored under a token is at least as fresh as the read models were when the token was read.
   */
  stateOf(names: readonly string[]): string | null {
    if (!this.listening) return null;
    return names.map((n) => this.generations.get(n) ?? 0).join('.');
  }

  private bump(name: string): void {
    this.generations.set(name, (this.generations.get(name) ?? 0) + 1);
  }

  /** Resolves true once every named projection has processed `position`, false after `timeoutMs`. */
  async waitFor(
    position: bigint,
    timeoutMs: number,
    names: readonly string[] = this.allNames,
  ): Promise<boolean> {
    const { rows } = await this.knex.raw<{ rows: { transaction_id: string }[] }>(
      'SELECT transaction_id FROM events WHERE position = ?',
      [position.toString()],
    );
    const tx = rows[0]?.transaction_id;
    if (tx === undefined) return true; // not an event we know: nothing to wait for
    const waiter: Waiter = {
      target: { transactionId: BigInt(tx), position },
      names: [...names],
      resolve: () => {},
    };
    await this.refresh();
    if (this.passed(waiter)) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve(false);
      }, timeoutMs);
      waiter.resolve = (ok) => {
        clearTimeout(timer);
        resolve(ok);
      };
      this.waiters.add(waiter);
      // A notice may have arrived between refresh and registration.
      // (If the database is away meanwhile, the waiter simply times out.)
      this.refresh().then(
        () => this.settle(),
        () => {},
      );
    });
  }

  private async refresh(): Promise<void> {
    const rows = await this.knex('projection_checkpoints').select<
      { name: string; transaction_id: string; position: string }[]
    >('name', 'transaction_id', 'position');
    // The stored checkpoint is the truth, also when a rebuild has just put it back to the start.
    for (const r of rows) {
      const next = { transactionId: BigInt(r.transaction_id), position: BigInt(r.position) };
      const known = this.checkpoints.get(r.name);
      // Read ahead of its notice (or moved back by a rebuild): the state has changed all the same.
      if (!known || known.transactionId !== next.transactionId || known.position !== next.position) {
        this.checkpoints.set(r.name, next);
        this.bump(r.name);
      }
    }
  }

  private passed(w: Waiter): boolean {
    return w.names.every((n) => {
      const c = this.checkpoints.get(n);
      return c !== undefined && !after(w.target, c);
    });
  }

  private settle(): void {
    for (const w of this.waiters) {
      if (this.passed(w)) {
        this.waiters.delete(w);
        w.resolve(true);
      }
    }
  }
}

const after = (
  a: { transactionId: bigint; position: bigint },
  b: { transactionId: bigint; position: bigint },
) => a.transactionId > b.transactionId || (a.transactionId === b.transactionId && a.position > b.position);

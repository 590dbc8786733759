import pg from 'pg';
import type { Knex } from 'knex';
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
  private readonly waiters = new Set<Waiter>();
  private client?: pg.Client;

  constructor(
    private readonly knex: Knex,
    private readonly connectionString: string,
    private readonly allNames: readonly string[],
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('error', () => {});
    client.on('notification', (msg) => {
      if (!msg.payload) return;
      const n = JSON.parse(msg.payload) as { names: string[]; transactionId: string; position: string };
      for (const name of n.names)
        this.checkpoints.set(name, { transactionId: BigInt(n.transactionId), position: BigInt(n.position) });
      this.settle();
    });
    await client.connect();
    await client.query(`LISTEN ${PROJECTIONS_CHANNEL}`);
    this.client = client;
    await this.refresh();
  }

  async stop(): Promise<void> {
    for (const w of this.waiters) w.resolve(false);
    this.waiters.clear();
    await this.client?.end().catch(() => {});
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
      void this.refresh().then(() => this.settle());
    });
  }

  private async refresh(): Promise<void> {
    const rows = await this.knex('projection_checkpoints').select<
      { name: string; transaction_id: string; position: string }[]
    >('name', 'transaction_id', 'position');
    // The stored checkpoint is the truth, also when a rebuild has just put it back to the start.
    for (const r of rows)
      this.checkpoints.set(r.name, { transactionId: BigInt(r.transaction_id), position: BigInt(r.position) });
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

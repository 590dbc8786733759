import pg from 'pg';

/**
 * Test-only: loaded into an app process with `node --import` to stop it at the worst moment for a crash. With
 * `PAWHAVEN_TEST_PAUSE_DURABLE=after:PostLiked` the process stops right after the first events of that type became
 * durable (their autocommitted INSERT, or the COMMIT of the transaction that inserted them) and before it does
 * anything with the result; with `before:PostLiked`, right before that statement is sent. It prints one line on
 * stderr (`paused after the durable write of PostLiked`), so a test can kill -9 it exactly there.
 *
 * It watches the PostgreSQL driver's statements rather than our code, so the same moment is reached whatever the
 * app does with its writes: the test means the same thing before and after a change of design.
 */
const setting = process.env.PAWHAVEN_TEST_PAUSE_DURABLE;
const [when, type] = setting?.split(':') ?? [];

if ((when === 'before' || when === 'after') && type) {
  type Callback = (err: Error | null, result?: unknown) => void;
  type Query = (this: pg.Client, ...args: unknown[]) => unknown;
  const query = pg.Client.prototype.query as unknown as Query;
  /** Per connection: inside a transaction, and the event types it inserted so far. */
  const sessions = new WeakMap<pg.Client, { inTransaction: boolean; types: string[] }>();
  let paused = false;

  const textAndValues = (args: unknown[]): { text?: string; values?: unknown[] } => {
    const [config, values] = args;
    if (typeof config === 'string')
      return { text: config, values: Array.isArray(values) ? values : undefined };
    const c = config as { text?: unknown; values?: unknown } | null;
    const text = typeof c?.text === 'string' ? c.text : undefined;
    return { text, values: Array.isArray(c?.values) ? c.values : Array.isArray(values) ? values : undefined };
  };

  /** Whether this statement makes events of `type` durable (tracking transactions on the way). */
  const makesDurable = (client: pg.Client, args: unknown[]): boolean => {
    const { text, values } = textAndValues(args);
    if (text === undefined) return false;
    const session = sessions.get(client) ?? { inTransaction: false, types: [] };
    sessions.set(client, session);
    const statement = text.trim().toUpperCase();
    if (/^BEGIN\b/.test(statement)) session.inTransaction = true;
    // The event store's append: its third parameter holds the events' types (one type for a one-event append).
    const third = values?.[2];
    const inserted = !/INSERT INTO events\b/i.test(text)
      ? []
      : Array.isArray(third)
        ? (third as string[])
        : typeof third === 'string'
          ? [third]
          : [];
    if (inserted.includes(type)) {
      if (!session.inTransaction) return true;
      session.types.push(...inserted);
    }
    if (/^(COMMIT|END)\b/.test(statement) || /^ROLLBACK\s*;?$/.test(statement)) {
      const committed = !statement.startsWith('ROLLBACK') && session.types.includes(type);
      session.inTransaction = false;
      session.types = [];
      return committed;
    }
    return false;
  };

  const never = new Promise<never>(() => {});

  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (paused || !makesDurable(this, args)) return query.apply(this, args);
    paused = true;
    const say = () => process.stderr.write(`paused ${when} the durable write of ${type}\n`);
    const last = args.length - 1;
    const callback = typeof args[last] === 'function' ? (args[last] as Callback) : undefined;
    if (when === 'before') {
      say();
      return callback ? undefined : never;
    }
    if (callback) {
      // Sent and done, but its caller never hears of it.
      return query.apply(this, [...args.slice(0, last), () => say()]);
    }
    return (query.apply(this, args) as Promise<unknown>).then(() => {
      say();
      return never;
    });
  } as typeof pg.Client.prototype.query;
}

import pg from 'pg';
import {
  personalDataOwners,
  personalDataRule,
  readPath,
  writePath,
  writePaths,
  type PersonalDataRule,
} from '@pawhaven/contracts';
import type {
  AppendResult,
  BatchHandler,
  EventStore,
  ExpectedRevision,
  LogPosition,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
} from '../event-store/event-store';
import { logger } from '../logger';
import {
  isEnvelope,
  openEnvelope,
  pairKeyId,
  parseEnvelope,
  sealedWith,
  sealedWithPath,
  sealFields,
  sealValue,
  type Envelope,
} from './envelope';
import { PersonalDataKeys, type KeyState } from './key-store';
import { personalStreamPrefix, type Pseudonyms } from './pseudonyms';

/** The pseudonyms, or where to get them on first need (the secret kept in the database: `resolvePseudonyms`). */
export type PseudonymSource = Pseudonyms | (() => Promise<Pseudonyms>);

type Sealable = { type: string; data: unknown; metadata?: { actorId?: string } };

/**
 * The event with its personal fields sealed under their owner's key (made on first need), or the key made from
 * both members' keys for a conversation's field: one field alone, several together (`sealFields`). A field already
 * sealed stays as it is; a field whose owner's key (either member's) was destroyed is written as its placeholder,
 * never in clear. Answers the same object when nothing changes.
 */
export async function sealPersonalFields<E extends Sealable>(
  keys: PersonalDataKeys,
  streamId: string,
  event: E,
): Promise<E> {
  const rule = personalDataRule(event.type);
  if (!rule) return event;
  const owners = personalDataOwners(rule, { streamId, data: event.data, metadata: event.metadata });
  if (owners.length === 0) return event; // nobody to shred by (a visitor's contact message): kept as written
  const open = rule.fields.filter((f) => {
    const value = readPath(event.data, f.path);
    return value !== undefined && value !== null && !isEnvelope(value);
  });
  if (open.length === 0) return event;
  const key = await keyForWrite(keys, owners);
  let data = event.data;
  const [first, ...others] = open;
  if (!key) for (const f of open) data = writePath(data, f.path, f.shredded);
  else if (others.length === 0)
    data = writePath(data, first!.path, sealValue(key.key, key.keyId, readPath(data, first!.path)));
  else {
    const values = Object.fromEntries(open.map((f) => [f.path, readPath(event.data, f.path)]));
    data = writePath(data, first!.path, sealFields(key.key, key.keyId, values));
    for (const f of others) data = writePath(data, f.path, sealedWith(first!.path));
  }
  return { ...event, data };
}

/**
 * The event with fields sealed under a key its rule no longer names opened and sealed again (a conversation's
 * message sealed with its sender's key alone, before it was sealed for both members): for the start-time rewrite.
 * A field whose old key (or a member's) was destroyed is written as its placeholder. Answers the same object when
 * nothing changes.
 */
export async function resealPersonalFields(
  keys: PersonalDataKeys,
  event: RecordedEvent,
): Promise<RecordedEvent> {
  const rule = personalDataRule(event.type);
  if (!rule) return event;
  const forPair = 'members' in rule.owner;
  const stale = rule.fields.some((f) => {
    const envelope = parseEnvelope(readPath(event.data, f.path));
    return envelope !== null && (envelope.pair !== null) !== forPair;
  });
  if (!stale) return event;
  const [opened] = await openPersonalFields(keys, [event]);
  return sealPersonalFields(keys, event.streamId, opened!);
}

/** The key to seal with: the owner's, or the pair's of both members; null when one of them was destroyed. */
async function keyForWrite(
  keys: PersonalDataKeys,
  owners: string[],
): Promise<{ keyId: string; key: Buffer } | null> {
  const found = await Promise.all(owners.map((owner) => keys.keyForWrite(owner)));
  if (found.some((k) => k === null)) return null;
  if (found.length === 1) return found[0]!;
  const [a, b] = (found as { keyId: string; key: Buffer }[]).sort((x, y) => (x.keyId < y.keyId ? -1 : 1));
  const keyId = pairKeyId(a!.keyId, b!.keyId);
  return { keyId, key: keys.pairKeyOf(keyId, a!.key, b!.key) };
}

/**
 * Crypto-shredding around ANY event store (docs/architecture.md, "Personal data"): appends seal the personal fields
 * of each event (contracts' PERSONAL_DATA) with the owner's key; every read opens them again. Once the owner's key
 * is destroyed (`forgetPerson`), a field reads as its placeholder ('' for texts, null where null is allowed), in
 * every process and every replay. Legacy plaintext fields (recorded before encryption, until the start-time
 * migration sealed them) read as written, or as the placeholder once their owner is forgotten.
 *
 * Only data (and the ids of streams named by personal data) is transformed: revisions, event ids, idempotency and
 * optimistic concurrency are the inner store's, unchanged.
 */
export class EncryptingEventStore implements EventStore {
  private pseudonymsReady?: Promise<Pseudonyms>;

  constructor(
    private readonly inner: EventStore,
    readonly keys: PersonalDataKeys,
    private readonly pseudonymSource: PseudonymSource,
  ) {}

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const sealed = await Promise.all(events.map((e) => sealPersonalFields(this.keys, streamId, e)));
    return this.inner.append(await this.storedStreamId(streamId), sealed, expected);
  }

  async *readStream(streamId: string, opts?: ReadStreamOptions): AsyncIterable<RecordedEvent> {
    const stored = await this.storedStreamId(streamId);
    for await (const batch of chunks(this.inner.readStream(stored, opts), 500))
      for (const e of await this.openBatch(batch)) yield { ...e, streamId };
  }

  /**
   * The id a stream is stored under: one whose id holds personal data (an e-mail claim, a username key's claim) is
   * kept under its pseudonym (`Pseudonyms.streamId`), found again from the same readable id. Other ids pass as
   * they are, without looking up the secret.
   */
  async storedStreamId(streamId: string): Promise<string> {
    if (personalStreamPrefix(streamId) === undefined) return streamId;
    return (await this.pseudonyms()).streamId(streamId);
  }

  /** The keyed hashes this store pseudonymises stream ids with. */
  pseudonyms(): Promise<Pseudonyms> {
    if (!this.pseudonymsReady) {
      const source = this.pseudonymSource;
      const ready = typeof source === 'function' ? source() : Promise.resolve(source);
      // A failed lookup (the database was down) is tried again by the next caller.
      ready.catch(() => {
        if (this.pseudonymsReady === ready) this.pseudonymsReady = undefined;
      });
      this.pseudonymsReady = ready;
    }
    return this.pseudonymsReady;
  }

  async *readAll(from: LogPosition, opts?: ReadAllOptions): AsyncIterable<RecordedEvent> {
    for await (const batch of chunks(this.inner.readAll(from, opts), opts?.batchSize ?? 1000))
      yield* await this.openBatch(batch);
  }

  subscribeAll(
    from: LogPosition,
    handler: BatchHandler,
    signal: AbortSignal,
    opts?: { batchSize?: number },
  ): Promise<void> {
    return this.inner.subscribeAll(from, async (batch) => handler(await this.openBatch(batch)), signal, opts);
  }

  headPosition(): Promise<LogPosition> {
    return this.inner.headPosition();
  }

  /** Destroys the person's key: none of their sealed fields can be read again, here or in any other process. */
  forgetPerson(userId: string): Promise<void> {
    return this.keys.forget(userId);
  }

  async close(): Promise<void> {
    await this.keys.close();
    await this.inner.close();
  }

  /**
   * The log as stored, personal fields still sealed: for a reader that opens only the events it needs opened
   * (`openBatch`), such as a rebuild whose folds do not all read personal data.
   */
  readAllSealed(from: LogPosition, opts?: ReadAllOptions): AsyncIterable<RecordedEvent> {
    return this.inner.readAll(from, opts);
  }

  /** How a worker thread opens personal fields too (`openerInThread`); null if it cannot. */
  openerSource(): OpenerSource | null {
    const keys = this.keys.connectionString();
    return keys ? { module: import.meta.url, exportName: openerInThread.name, args: [keys] } : null;
  }

  /** Opens a batch's personal fields with one key lookup for the whole batch (most come from the cache). */
  openBatch(batch: RecordedEvent[]): Promise<RecordedEvent[]> {
    return openPersonalFields(this.keys, batch);
  }
}

/** Where a worker thread finds its opener: `module`'s export `exportName`, called with `args` (plain data). */
export type OpenerSource = { module: string; exportName: string; args: unknown[] };

/** What a worker thread opens personal fields with (`EncryptingEventStore.openerSource`). */
export type PersonalFieldOpener = {
  openBatch(batch: RecordedEvent[]): Promise<RecordedEvent[]>;
  close(): Promise<void>;
};

/** Keys read on a pool of the thread's own (and a listener for destroyed ones, as everywhere). */
export function openerInThread(keysConnectionString: string): PersonalFieldOpener {
  const pool = new pg.Pool({ connectionString: keysConnectionString, max: 2 });
  pool.on('error', () => {});
  const keys = new PersonalDataKeys(pool);
  return {
    openBatch: (batch) => openPersonalFields(keys, batch),
    async close() {
      await keys.close();
      await pool.end();
    },
  };
}

/** An event of a batch with personal fields to open: each field's envelope parsed once (`Sealed`). */
type Opening = { index: number; rule: PersonalDataRule; owners: string[]; sealed: Sealed[] };
/** A field as stored: its envelope; the path of the field whose envelope holds it too; or null (legacy, or none). */
type Sealed = Envelope | string | null;

/**
 * Opens a batch's personal fields with one key lookup for the whole batch (most come from the cache). A rebuild opens
 * hundreds of thousands of events here: plain loops over the batch, no closure made per event.
 */
async function openPersonalFields(keys: PersonalDataKeys, batch: RecordedEvent[]): Promise<RecordedEvent[]> {
  const keyIds: string[] = [];
  const owners: string[] = [];
  const work: Opening[] = [];
  for (let index = 0; index < batch.length; index++) {
    const e = batch[index]!;
    const rule = personalDataRule(e.type);
    if (!rule) continue;
    const ownersOfEvent = personalDataOwners(rule, e);
    let any = false;
    const sealed: Sealed[] = [];
    for (const f of rule.fields) {
      const value = readPath(e.data, f.path);
      const envelope = parseEnvelope(value);
      const holder = envelope ? null : sealedWithPath(value);
      sealed.push(envelope ?? holder);
      if (envelope) {
        if (envelope.pair) keyIds.push(envelope.pair[0], envelope.pair[1]);
        else keyIds.push(envelope.keyId);
      } else if (holder !== null) {
        // opened with its holder's envelope
      } else if (value === undefined || value === null || ownersOfEvent.length === 0) continue;
      else for (const owner of ownersOfEvent) owners.push(owner); // legacy plaintext: shown unless one was forgotten
      any = true;
    }
    if (any) work.push({ index, rule, owners: ownersOfEvent, sealed });
  }
  if (work.length === 0) return batch;
  const found = await keys.lookup(keyIds, owners);
  const out = batch.slice();
  for (const opening of work) out[opening.index] = openEvent(keys, found, batch[opening.index]!, opening);
  return out;
}

/** The key an envelope was sealed with: its owner's, or the pair's of both members; null once one is destroyed. */
function keyOf(keys: PersonalDataKeys, byKey: Map<string, KeyState>, envelope: Envelope): Buffer | null {
  if (!envelope.pair) return byKey.get(envelope.keyId)?.key ?? null;
  const a = byKey.get(envelope.pair[0])?.key ?? null;
  const b = byKey.get(envelope.pair[1])?.key ?? null;
  return a && b ? keys.pairKeyOf(envelope.keyId, a, b) : null;
}

/** The event with its fields opened (or shredded: a destroyed key, an unreadable envelope, a forgotten owner). */
function openEvent(
  keys: PersonalDataKeys,
  { byKey, byUser }: { byKey: Map<string, KeyState>; byUser: Map<string, KeyState> },
  e: RecordedEvent,
  { rule, owners, sealed }: Opening,
): RecordedEvent {
  let forgotten = false;
  for (const owner of owners) if (byUser.get(owner)?.destroyed === true) forgotten = true;
  const opened: [path: string, value: unknown][] = [];
  // Fields sealed together are opened once, with their holder's envelope: their values by path (null: unreadable).
  let together: Envelope | null = null;
  let values: Record<string, unknown> | null = null;
  for (let i = 0; i < rule.fields.length; i++) {
    const f = rule.fields[i]!;
    const s = sealed[i];
    if (typeof s === 'string' || s?.fields) {
      let holder: Sealed | undefined = s;
      if (typeof s === 'string')
        for (let j = 0; j < rule.fields.length; j++) if (rule.fields[j]!.path === s) holder = sealed[j];
      if (holder && typeof holder === 'object' && holder.fields && together !== holder) {
        together = holder;
        const all = open(keyOf(keys, byKey, holder), holder, null, e);
        values =
          typeof all === 'object' && all !== null && !Array.isArray(all)
            ? (all as Record<string, unknown>)
            : null;
      }
      const held = holder && typeof holder === 'object' && holder.fields ? values : null;
      opened.push([f.path, held && Object.hasOwn(held, f.path) ? held[f.path] : f.shredded]);
    } else if (s) opened.push([f.path, open(keyOf(keys, byKey, s), s, f.shredded, e)]);
    else if (forgotten) {
      const value = readPath(e.data, f.path);
      if (value !== undefined && value !== null) opened.push([f.path, f.shredded]);
    }
  }
  return opened.length > 0 ? { ...e, data: writePaths(e.data, opened) } : e;
}

function open(key: Buffer | null, envelope: Envelope, shredded: '' | null, e: RecordedEvent): unknown {
  if (!key) return shredded;
  try {
    return openEnvelope(key, envelope);
  } catch (error) {
    // A tampered or mis-keyed field must not stop every reader of the log: it reads as gone.
    logger.error({ err: error, position: e.position.toString(), type: e.type }, 'personal field unreadable');
    return shredded;
  }
}

/** `source` in arrays of up to `size`. */
export async function* chunks<T>(source: AsyncIterable<T>, size: number): AsyncIterable<T[]> {
  let batch: T[] = [];
  for await (const item of source) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

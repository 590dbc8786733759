import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import type { Knex } from 'knex';
import type { RecordedEvent } from '../event-store/event-store';
import { START } from '../event-store/event-store';
import { applyBatch, readCheckpoint } from './checkpoints';
import type { ChangeNotice } from './notices';
import { defineReadModel } from './read-model';

/**
 * One definition, two stores: a batch applied live (rows loaded on demand, written back at its end) leaves the
 * tables holding exactly the rows the same `evolve` computes in memory for a rebuild, and pushes each notice once.
 */

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
let db: TestDb;

beforeAll(async () => {
  db = await createTestDatabase({ max: 2 });
  await db.knex.raw(`
    CREATE TABLE rm_owners (owner_id uuid PRIMARY KEY, ads bigint NOT NULL, since timestamptz NOT NULL);
    CREATE TABLE rm_ads (ad_id uuid PRIMARY KEY, owner_id uuid NOT NULL, tags jsonb NOT NULL);
    CREATE INDEX ON rm_ads (owner_id);
    CREATE TABLE rm_likes (ad_id uuid NOT NULL, user_id uuid NOT NULL, PRIMARY KEY (ad_id, user_id));
    CREATE INDEX ON rm_likes (user_id);
    CREATE TABLE rm_terms (user_id uuid NOT NULL, since bigint NOT NULL, until bigint, PRIMARY KEY (user_id, since));
    CREATE INDEX ON rm_terms (until);
    CREATE TABLE rm_posts (id uuid PRIMARY KEY, position bigint NOT NULL, seen_by jsonb NOT NULL);
    CREATE INDEX ON rm_posts (position);`);
});
afterAll(async () => {
  await db.drop();
});

type Owner = { owner_id: string; ads: number; since: string };
type Ad = { ad_id: string; owner_id: string; tags: string[] };
type Like = { ad_id: string; user_id: string };

const model = defineReadModel<{ rm_owners: Owner; rm_ads: Ad; rm_likes: Like }>({
  name: 'read-model-test',
  tables: {
    rm_owners: { key: ['owner_id'] },
    rm_ads: { key: ['ad_id'], lookups: ['owner_id'] },
    rm_likes: { key: ['ad_id', 'user_id'], lookups: ['user_id', 'ad_id'] },
  },
  handles: ['Published', 'Liked', 'OwnerGone'],
  evolve(rows, event, notices) {
    const data = event.data as Record<string, string>;
    switch (event.type) {
      case 'Published': {
        if (rows.rm_ads.get(data.adId)) return;
        rows.rm_ads.put({ ad_id: data.adId!, owner_id: data.ownerId!, tags: [data.tag!] });
        const owner = rows.rm_owners.get(data.ownerId);
        rows.rm_owners.put(
          owner
            ? { ...owner, ads: owner.ads + 1 }
            : { owner_id: data.ownerId!, ads: 1, since: event.createdAt.toISOString() },
        );
        notices.push({ kind: 'ad', adId: data.adId! });
        return;
      }
      case 'Liked': {
        // Throws on a like of an unknown ad: only while its ad is not loaded yet, which a live pass must survive.
        const ad = rows.rm_ads.get(data.adId)!;
        if (ad.owner_id === data.userId) return;
        rows.rm_likes.put({ ad_id: data.adId!, user_id: data.userId! });
        return;
      }
      case 'OwnerGone': {
        for (const ad of rows.rm_ads.find('owner_id', data.ownerId)) {
          rows.rm_ads.delete(ad.ad_id);
          for (const like of rows.rm_likes.find('ad_id', ad.ad_id))
            rows.rm_likes.delete(like.ad_id, like.user_id);
        }
        for (const like of rows.rm_likes.find('user_id', data.ownerId))
          rows.rm_likes.delete(like.ad_id, like.user_id);
        rows.rm_owners.delete(data.ownerId);
        return;
      }
    }
  },
});

let position = 0n;
const event = (type: string, data: Record<string, string>): RecordedEvent => ({
  type,
  data,
  streamId: 'test',
  streamRevision: 0n,
  eventId: crypto.randomUUID(),
  transactionId: 1n,
  position: ++position,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, Number(position))),
  metadata: {},
});

const [o1, o2, a1, a2, a3] = Array.from({ length: 5 }, () => crypto.randomUUID());
const log = [
  [event('Published', { adId: a1!, ownerId: o1!, tag: 'dog' }), event('Liked', { adId: a1!, userId: o2! })],
  [
    event('Published', { adId: a2!, ownerId: o1!, tag: 'cat' }),
    event('Published', { adId: a3!, ownerId: o2!, tag: 'cat' }),
    event('Liked', { adId: a3!, userId: o1! }),
    event('Liked', { adId: a2!, userId: o2! }),
  ],
  [event('Published', { adId: a1!, ownerId: o1!, tag: 'dup' }), event('OwnerGone', { ownerId: o2! })],
];

const live = async () =>
  Object.fromEntries(
    await Promise.all(
      ['rm_owners', 'rm_ads', 'rm_likes'].map(async (t) => {
        const { rows } = await db.knex.raw(`SELECT to_jsonb(t) AS r FROM ${t} t ORDER BY 1`);
        return [t, (rows as { r: unknown }[]).map((x) => x.r)];
      }),
    ),
  );

describe('a read model defined once', () => {
  it('builds the same rows live, batch by batch, as in memory, and pushes each notice once', async () => {
    const pushed: ChangeNotice[] = [];
    for (const batch of log)
      await db.knex.transaction((tx) => model.applyBatch!(tx, batch, { push: (n) => void pushed.push(n) }));
    expect(pushed).toEqual([
      { kind: 'ad', adId: a1 },
      { kind: 'ad', adId: a2 },
      { kind: 'ad', adId: a3 },
    ]);

    const fold = model.fold!();
    for (const batch of log) for (const e of batch) fold.apply(e);
    const folded = fold.rows();
    const tables = await live();
    const json = async (t: string) => {
      const { rows } = await db.knex.raw(
        `SELECT to_jsonb(r) AS r FROM jsonb_populate_recordset(NULL::${t}, ?::jsonb) r ORDER BY 1`,
        [JSON.stringify([...folded[t]!])],
      );
      return (rows as { r: unknown }[]).map((x) => x.r);
    };
    expect(tables).toEqual({
      rm_owners: await json('rm_owners'),
      rm_ads: await json('rm_ads'),
      rm_likes: await json('rm_likes'),
    });
    // o2 gone with their ad, the like it had and those they gave: o1's two ads are left, unliked.
    expect(tables.rm_owners).toEqual([{ owner_id: o1, ads: 2, since: '2026-01-01T00:00:01+00:00' }]);
    expect(tables.rm_ads).toHaveLength(2);
    expect(tables.rm_likes).toEqual([]);
  });

  it('reads the rows a batch names from the tables, timestamps as ISO text', async () => {
    const seen: unknown[] = [];
    const probe = defineReadModel<{ rm_owners: Owner }>({
      name: 'probe',
      tables: { rm_owners: { key: ['owner_id'] } },
      handles: ['Probe'],
      evolve: (rows, e) => void seen.push(rows.rm_owners.get((e.data as { ownerId: string }).ownerId)),
    });
    await db.knex.transaction((tx) => probe.apply(tx, event('Probe', { ownerId: o1! }), { push() {} }));
    expect(seen.at(-1)).toEqual({ owner_id: o1, ads: 2, since: '2026-01-01T00:00:01.000Z' });
  });

  it('lets evolve change the rows it got and put them back: a pass run again after a miss changes them once', async () => {
    const bump = defineReadModel<{ rm_owners: Owner; rm_ads: Ad }>({
      name: 'bump',
      tables: { rm_owners: { key: ['owner_id'] }, rm_ads: { key: ['ad_id'], lookups: ['owner_id'] } },
      handles: ['Bump'],
      evolve(rows, e) {
        const owner = rows.rm_owners.get((e.data as { ownerId: string }).ownerId);
        if (!owner) return;
        owner.ads += 1;
        rows.rm_owners.put(owner);
        // Asked for only once the owner is loaded: a miss of the pass after the owner's, which runs again.
        for (const ad of rows.rm_ads.find('owner_id', owner.owner_id)) {
          ad.tags.push('bumped');
          rows.rm_ads.put(ad);
        }
      },
    });
    await db.knex.transaction((tx) => bump.apply(tx, event('Bump', { ownerId: o1! }), { push() {} }));
    const tables = await live();
    expect(tables.rm_owners).toEqual([{ owner_id: o1, ads: 3, since: '2026-01-01T00:00:01+00:00' }]);
    expect(tables.rm_ads.map((ad: Ad) => ad.tags).sort()).toEqual([
      ['cat', 'bumped'],
      ['dog', 'bumped'],
    ]);
  });
});

type Term = { user_id: string; since: number; until: number | null };
type Seen = { id: string; position: number; seen_by: string[] };

/**
 * Ranges: a user is a member from `since` until `until` (NULL while they are); a post is seen by the members of its
 * time, and a member leaving lists the posts of their term (each found by a range, never a whole table).
 */
const ranged = defineReadModel<{ rm_terms: Term; rm_posts: Seen }>({
  name: 'ranged-test',
  tables: {
    rm_terms: { key: ['user_id', 'since'], ranges: ['until'] },
    rm_posts: { key: ['id'], ranges: ['position'] },
  },
  handles: ['Joined', 'Left', 'Posted'],
  evolve(rows, e, notices) {
    const data = e.data as Record<string, string>;
    const at = Number(e.position);
    const open = rows.rm_terms.findNull('until');
    switch (e.type) {
      case 'Joined':
        if (!open.some((t) => t.user_id === data.userId))
          rows.rm_terms.put({ user_id: data.userId!, since: at, until: null });
        return;
      case 'Left':
        for (const term of open.filter((t) => t.user_id === data.userId)) {
          rows.rm_terms.put({ ...term, until: at });
          const posts = rows.rm_posts.between('position', term.since, at);
          notices.push({
            kind: 'left',
            userId: data.userId!,
            posts: posts
              .map((p) => p.id)
              .sort()
              .join(),
          });
        }
        return;
      case 'Posted': {
        // Members now: the open terms, and those closed after the post's position (none, in log order).
        const closedLater = rows.rm_terms.between('until', at, undefined);
        const members = [...open, ...closedLater].map((t) => t.user_id).sort();
        rows.rm_posts.put({ id: data.postId!, position: at, seen_by: members });
        return;
      }
    }
  },
});

describe('a read model finding rows by ranges and NULLs', () => {
  it('builds the same rows live as in memory, and sees the rows its batch changed', async () => {
    const [u1, u2, p1, p2, p3] = Array.from({ length: 5 }, () => crypto.randomUUID());
    const batches = [
      [event('Joined', { userId: u1! }), event('Posted', { postId: p1! })],
      [
        event('Joined', { userId: u2! }),
        event('Posted', { postId: p2! }),
        event('Left', { userId: u1! }),
        event('Posted', { postId: p3! }),
      ],
      [event('Left', { userId: u2! })],
    ];
    const pushed: ChangeNotice[] = [];
    for (const batch of batches)
      await db.knex.transaction((tx) => ranged.applyBatch!(tx, batch, { push: (n) => void pushed.push(n) }));
    expect(pushed).toEqual([
      { kind: 'left', userId: u1, posts: [p1, p2].sort().join() },
      { kind: 'left', userId: u2, posts: [p2, p3].sort().join() },
    ]);

    const fold = ranged.fold!();
    for (const batch of batches) for (const e of batch) fold.apply(e);
    const folded = fold.rows();
    for (const t of ['rm_terms', 'rm_posts']) {
      const { rows: live } = await db.knex.raw(`SELECT to_jsonb(t) AS r FROM ${t} t ORDER BY 1`);
      const { rows: memory } = await db.knex.raw(
        `SELECT to_jsonb(r) AS r FROM jsonb_populate_recordset(NULL::${t}, ?::jsonb) r ORDER BY 1`,
        [JSON.stringify([...folded[t]!])],
      );
      expect(live).toEqual(memory);
    }
    const { rows: posts } = await db.knex.raw(`SELECT id, seen_by FROM rm_posts`);
    expect(Object.fromEntries(posts.map((p: Seen) => [p.id, p.seen_by]))).toEqual({
      [p1!]: [u1],
      [p2!]: [u1, u2].sort(),
      [p3!]: [u2],
    });
    const { rows: terms } = await db.knex.raw(`SELECT count(*)::int AS n FROM rm_terms WHERE until IS NULL`);
    expect(terms).toEqual([{ n: 0 }]);
  });
});

describe('read models following the log together', () => {
  it('load what any of them missed in one round trip per pass, and write every change, notice and checkpoint in one statement', async () => {
    const [u, ad, owner] = Array.from({ length: 3 }, () => crypto.randomUUID());
    const batch = [
      event('Joined', { userId: u! }),
      event('Published', { adId: ad!, ownerId: owner!, tag: 'dog' }),
      event('Posted', { postId: crypto.randomUUID() }),
      event('Liked', { adId: ad!, userId: u! }),
    ];
    const statements: string[] = [];
    const listen = (q: { sql: string }) => void statements.push(q.sql);
    db.knex.on('query', listen);
    try {
      await applyBatch(db.knex, [model, ranged], batch, START);
    } finally {
      db.knex.off('query', listen);
    }
    const loads = statements.filter((sql) => sql.includes('to_jsonb(t)'));
    const writes = statements.filter((sql) => /^\s*(WITH|INSERT|UPDATE|DELETE)\b/i.test(sql));
    // Both models miss rows in their first pass: one load asks for both.
    expect(loads[0]).toContain('"rm_owners"');
    expect(loads[0]).toContain('"rm_terms"');
    // Each model alone needs two loads at most (ad → owner; terms and posts at once).
    expect(loads.length).toBeLessThanOrEqual(2);
    expect(writes).toHaveLength(1);
    for (const part of [
      '"rm_ads"',
      '"rm_terms"',
      '"rm_posts"',
      'change_notices',
      'projection_checkpoints',
      'pg_notify',
    ])
      expect(writes[0]).toContain(part);

    const end = { transactionId: 1n, position: batch.at(-1)!.position };
    expect(await readCheckpoint(db.knex, model.name)).toEqual(end);
    expect(await readCheckpoint(db.knex, ranged.name)).toEqual(end);
    const { rows } = await db.knex.raw(`SELECT payload FROM change_notices ORDER BY id DESC LIMIT 1`);
    expect(JSON.parse(rows[0].payload)).toEqual([{ kind: 'ad', adId: ad }]);
    const { rows: likes } = await db.knex.raw(`SELECT user_id FROM rm_likes WHERE ad_id = ?`, [ad!]);
    expect(likes).toEqual([{ user_id: u }]);
  });
});

describe('a live batch among many rows', () => {
  type BigAd = { ad_id: string; owner_id: string };
  type BigLike = { ad_id: string; user_id: string };
  const big = defineReadModel<{ rm_big_ads: BigAd; rm_big_likes: BigLike }>({
    name: 'big-test',
    tables: {
      rm_big_ads: { key: ['ad_id'], lookups: ['owner_id'] },
      rm_big_likes: { key: ['ad_id', 'user_id'], lookups: ['user_id'] },
    },
    handles: ['Liked', 'Unliked', 'OwnerGone'],
    evolve(rows, e) {
      const data = e.data as Record<string, string>;
      switch (e.type) {
        case 'Liked':
          if (rows.rm_big_ads.get(data.adId) && !rows.rm_big_likes.get(data.adId, data.userId))
            rows.rm_big_likes.put({ ad_id: data.adId!, user_id: data.userId! });
          return;
        case 'Unliked':
          rows.rm_big_likes.delete(data.adId, data.userId);
          return;
        case 'OwnerGone':
          for (const ad of rows.rm_big_ads.find('owner_id', data.ownerId)) rows.rm_big_ads.delete(ad.ad_id);
          for (const like of rows.rm_big_likes.find('user_id', data.ownerId))
            rows.rm_big_likes.delete(like.ad_id, like.user_id);
          return;
      }
    },
  });

  it('reads and deletes the rows it names by index, never by reading a whole table', async () => {
    // Thousands of rows, with their statistics: the planner weighs an index against a scan of the whole table.
    await db.knex.raw(`
      CREATE TABLE rm_big_ads (ad_id uuid PRIMARY KEY, owner_id uuid NOT NULL);
      CREATE INDEX ON rm_big_ads (owner_id);
      CREATE TABLE rm_big_likes (ad_id uuid NOT NULL, user_id uuid NOT NULL, PRIMARY KEY (ad_id, user_id));
      CREATE INDEX ON rm_big_likes (user_id);
      INSERT INTO rm_big_ads SELECT gen_random_uuid(), gen_random_uuid() FROM generate_series(1, 5000);
      INSERT INTO rm_big_likes SELECT ad_id, gen_random_uuid() FROM rm_big_ads;
      ANALYZE rm_big_ads, rm_big_likes;`);
    const { rows: sample } = await db.knex.raw(
      `SELECT a.ad_id, a.owner_id, l.user_id FROM rm_big_ads a JOIN rm_big_likes l USING (ad_id) LIMIT 2`,
    );
    const [one, two] = sample as { ad_id: string; owner_id: string; user_id: string }[];
    const liker = crypto.randomUUID();
    const batch = [
      event('Liked', { adId: one!.ad_id, userId: liker }),
      event('Unliked', { adId: one!.ad_id, userId: one!.user_id }),
      event('OwnerGone', { ownerId: two!.owner_id }),
      event('OwnerGone', { ownerId: two!.user_id }),
    ];
    // Rows read by whole-table scans, as this backend counts them (counts of its earlier transactions may not be
    // flushed yet: the difference across the batch is the batch's own).
    const scanned = async (tx: Knex.Transaction) => {
      const { rows } = await tx.raw(
        `SELECT relname, seq_tup_read FROM pg_stat_xact_user_tables WHERE relname LIKE 'rm_big_%' ORDER BY relname`,
      );
      return (rows as { relname: string; seq_tup_read: string }[]).map((r) => Number(r.seq_tup_read));
    };
    const [before, after] = await db.knex.transaction(async (tx) => {
      const before = await scanned(tx);
      await big.applyBatch!(tx, batch, { push() {} });
      return [before, await scanned(tx)];
    });
    expect(after).toEqual(before);
    const { rows: likes } = await db.knex.raw(
      `SELECT user_id FROM rm_big_likes WHERE ad_id = ? ORDER BY user_id`,
      [one!.ad_id],
    );
    expect(likes).toEqual([{ user_id: liker }]);
    const { rows: gone } = await db.knex.raw(
      `SELECT count(*)::int AS n FROM rm_big_ads WHERE ad_id = ? OR owner_id = ?`,
      [two!.ad_id, two!.owner_id],
    );
    expect(gone).toEqual([{ n: 0 }]);
    const { rows: theirs } = await db.knex.raw(
      `SELECT count(*)::int AS n FROM rm_big_likes WHERE user_id = ?`,
      [two!.user_id],
    );
    expect(theirs).toEqual([{ n: 0 }]);
  });
});

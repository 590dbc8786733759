import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSISTENT_AFTER_HEADER } from '@pawhaven/contracts';
import {
  NO_NOTICES,
  PostgresEventStore,
  rebuildProjection,
  START,
  type RecordedEvent,
} from '@pawhaven/platform';
import { allProjections } from '@pawhaven/projections';
import { startTestApp, type Json, type TestApp } from '@pawhaven/testing';
import { communityLog, type CommunityLog } from './community-log.testing';

/**
 * The community read models and user activity, driven by events appended straight to the log (as the command side
 * records them, plus histories it would never write: duplicate toggles, stragglers after a deletion), then rebuilt
 * from the log alone.
 */

const TABLES: Record<string, string> = {
  posts: 'id',
  post_likes: 'post_id, user_id',
  post_comments: 'id',
  user_community_stats: 'user_id',
  community_totals: 'id',
  user_activity: 'user_id',
};

let t: TestApp;
let store: PostgresEventStore;
let log: CommunityLog;
let last = 0n;
/** Ids of the scenario. */
const s = {
  p1: '',
  p2: '',
  p3: '',
  c: {} as Record<string, string>,
};

const A = 'user-alice';
const B = 'user-bob';
const C = 'user-carol';
const D = 'user-dave';

const at = async <T extends bigint | { position: bigint }>(r: Promise<T>): Promise<T> => {
  const v = await r;
  const position = typeof v === 'bigint' ? v : v.position;
  if (position > last) last = position;
  return v;
};

/** Waits until every projection has passed the last appended event. */
const settle = async () => {
  const res = await t.api.get('/api/config', undefined, { [CONSISTENT_AFTER_HEADER]: last.toString() });
  expect(res.headers.get('x-consistency')).toBe('consistent');
};

const rows = async (sql: string, params: unknown[] = []) =>
  (await t.db.pool.query(sql, params)).rows as Json[];

async function dump(): Promise<Record<string, Json[]>> {
  const out: Record<string, Json[]> = {};
  for (const [table, key] of Object.entries(TABLES))
    out[table] = await rows(`SELECT * FROM ${table} ORDER BY ${key}`);
  return out;
}

beforeAll(async () => {
  t = await startTestApp();
  store = new PostgresEventStore(t.db.pool);
  log = communityLog(store);
  await runScenario();
});
afterAll(async () => {
  await store?.close();
  await t?.stop();
});

/**
 * P1 (Alice): caption edited; liked by Bob (twice in a row), Carol (then unliked twice) and Alice herself; a
 * thread c1 (Bob) ← c2 (Alice) ← c3 (Carol), a thread c4 (Carol), a thread c5 (Dave) ← c6 (Bob); c1 and c2 deleted
 * (c3 still below them), c4 deleted (nothing below), c6 deleted twice, then c5 deleted (nothing live below).
 * P2 (Bob, a vet): liked and commented, then deleted by an admin; a like and a comment arriving afterwards.
 * P3 (Carol): untouched.
 */
async function runScenario() {
  s.p1 = (await at(log.publish(A, { caption: 'First caption' }))).postId;
  s.p2 = (await at(log.publish(B, { vet: true, caption: 'Vet post' }))).postId;
  s.p3 = (await at(log.publish(C, { caption: 'Carol' }))).postId;
  await at(log.editCaption(s.p1, 'Edited caption'));

  await at(log.like(s.p1, B));
  await at(log.like(s.p1, B));
  await at(log.like(s.p1, C));
  await at(log.unlike(s.p1, C));
  await at(log.unlike(s.p1, C));
  await at(log.like(s.p1, A));

  const comment = async (key: string, post: string, user: string, parent?: string) => {
    s.c[key] = (await at(log.comment(post, user, `${key} text`, parent ? s.c[parent]! : null))).commentId;
  };
  await comment('c1', s.p1, B);
  await comment('c2', s.p1, A, 'c1');
  await comment('c3', s.p1, C, 'c2');
  await comment('c4', s.p1, C);
  await comment('c5', s.p1, D);
  await comment('c6', s.p1, B, 'c5');
  await at(log.deleteComment(s.p1, s.c.c1!));
  await at(log.deleteComment(s.p1, s.c.c2!));
  await at(log.deleteComment(s.p1, s.c.c4!, 'admin-1'));
  await at(log.deleteComment(s.p1, s.c.c6!));
  await at(log.deleteComment(s.p1, s.c.c6!));
  await at(log.deleteComment(s.p1, s.c.c5!));

  await at(log.like(s.p2, A));
  await at(log.like(s.p2, C));
  await at(log.like(s.p2, B));
  await comment('p2a', s.p2, A);
  await comment('p2b', s.p2, C, 'p2a');
  await comment('p2c', s.p2, D);
  await at(log.deleteComment(s.p2, s.c.p2c!));
  await at(log.deletePost(s.p2, 'admin-1'));
  // Stragglers: a like, an unlike and a comment recorded after the post was deleted change nothing.
  await at(log.like(s.p2, D));
  await at(log.unlike(s.p2, A));
  await comment('late', s.p2, D);
  await at(log.deletePost(s.p2, 'admin-1'));
  await settle();
}

describe('the community read models after the scenario', () => {
  it('hold the live posts with their captions, counts and vet marks; a deleted post leaves no row', async () => {
    const posts = await rows(
      `SELECT id, author_id, caption, author_is_veterinarian, like_count, comment_count,
              created_at < updated_at AS edited FROM posts ORDER BY created_at`,
    );
    expect(posts).toEqual([
      {
        id: s.p1,
        author_id: A,
        caption: 'Edited caption',
        author_is_veterinarian: false,
        like_count: 2,
        comment_count: 1,
        edited: true,
      },
      {
        id: s.p3,
        author_id: C,
        caption: 'Carol',
        author_is_veterinarian: false,
        like_count: 0,
        comment_count: 0,
        edited: false,
      },
    ]);
    expect(await rows(`SELECT posts FROM community_totals`)).toEqual([{ posts: 2 }]);
    expect(await rows(`SELECT * FROM post_likes WHERE post_id = $1`, [s.p2])).toEqual([]);
    expect(await rows(`SELECT * FROM post_comments WHERE post_id = $1`, [s.p2])).toEqual([]);
  });

  it('keep likes a set: repeated likes and unlikes neither double nor go negative', async () => {
    const likes = await rows(`SELECT user_id FROM post_likes WHERE post_id = $1 ORDER BY liked_at`, [s.p1]);
    expect(likes.map((l) => l.user_id)).toEqual([B, A]);
    const counts = await rows(
      `SELECT p.id, p.like_count, (SELECT count(*)::int FROM post_likes l WHERE l.post_id = p.id) AS n FROM posts p`,
    );
    for (const c of counts) expect(c.like_count).toBe(c.n);
  });

  it('keep deleted comments emptied, with live_replies counting the live comments below each', async () => {
    const comments = await rows(
      `SELECT id, author_id, content, parent_comment_id, deleted, deleted_at IS NOT NULL AS has_deleted_at,
              thread_id, live_replies FROM post_comments WHERE post_id = $1 ORDER BY created_at`,
      [s.p1],
    );
    const c = s.c as Record<string, string>;
    expect(comments).toEqual([
      row(c.c1!, B, '', null, true, c.c1!, 1),
      row(c.c2!, A, '', c.c1!, true, c.c1!, 1),
      row(c.c3!, C, 'c3 text', c.c2!, false, c.c1!, 0),
      row(c.c4!, C, '', null, true, c.c4!, 0),
      row(c.c5!, D, '', null, true, c.c5!, 0),
      row(c.c6!, B, '', c.c5!, true, c.c5!, 0),
    ]);
    function row(
      id: string,
      author: string,
      content: string,
      parent: string | null,
      deleted: boolean,
      thread: string,
      liveReplies: number,
    ) {
      return {
        id,
        author_id: author,
        content,
        parent_comment_id: parent,
        deleted,
        has_deleted_at: deleted,
        thread_id: thread,
        live_replies: liveReplies,
      };
    }
  });

  it('count per user live posts, live comments, likes given and received: the aggregates of the tables', async () => {
    const stats = await rows(
      `SELECT user_id, posts, comments, likes_given, likes_received FROM user_community_stats ORDER BY user_id`,
    );
    expect(stats).toEqual([
      { user_id: A, posts: 1, comments: 0, likes_given: 1, likes_received: 2 },
      { user_id: B, posts: 0, comments: 0, likes_given: 1, likes_received: 0 },
      { user_id: C, posts: 1, comments: 1, likes_given: 0, likes_received: 0 },
      { user_id: D, posts: 0, comments: 0, likes_given: 0, likes_received: 0 },
    ]);
    const aggregates = await rows(`
      SELECT u.user_id,
        (SELECT count(*)::int FROM posts WHERE author_id = u.user_id) AS posts,
        (SELECT count(*)::int FROM post_comments WHERE author_id = u.user_id AND NOT deleted) AS comments,
        (SELECT count(*)::int FROM post_likes WHERE user_id = u.user_id) AS likes_given,
        (SELECT count(*)::int FROM post_likes l JOIN posts p ON p.id = l.post_id WHERE p.author_id = u.user_id)
          AS likes_received
      FROM user_community_stats u ORDER BY u.user_id`);
    expect(stats).toEqual(aggregates);
  });

  it("record each actor's activity at the log's time of their first event within the minute", async () => {
    const activity = Object.fromEntries(
      (await rows(`SELECT user_id, last_active FROM user_activity`)).map((r) => [
        r.user_id,
        r.last_active.toISOString(),
      ]),
    );
    // The scenario ran within a minute: each actor's time is that of their first event.
    const firsts = await rows(
      `SELECT DISTINCT ON (metadata->>'actorId') metadata->>'actorId' AS actor, created_at
       FROM events WHERE stream_id LIKE 'post-%' ORDER BY metadata->>'actorId', transaction_id, position`,
    );
    for (const f of firsts) expect(activity[f.actor], f.actor).toBe(f.created_at.toISOString());
    expect(Object.keys(activity)).toEqual(expect.arrayContaining([A, B, C, D, 'admin-1']));
  });
});

const communityProjections = () => allProjections.filter((p) => p.tables.some((table) => table in TABLES));

describe('rebuilding the community projections and user activity from the log', () => {
  it('reproduces identical rows in every table, even from tampered tables', async () => {
    const before = await dump();
    const projections = communityProjections();
    expect(projections.map((p) => p.name).sort()).toEqual(['community-posts', 'user-activity']);

    await t.db.pool.query(`UPDATE posts SET like_count = 7, comment_count = 0, caption = 'x'`);
    await t.db.pool.query(`DELETE FROM post_likes`);
    await t.db.pool.query(`UPDATE post_comments SET live_replies = 0, deleted = NOT deleted`);
    await t.db.pool.query(`UPDATE user_community_stats SET posts = posts + 3`);
    await t.db.pool.query(`UPDATE user_activity SET last_active = now()`);
    await t.db.pool.query(`UPDATE community_totals SET posts = 40`);
    expect(await dump()).not.toEqual(before);

    for (const p of projections) {
      const result = await rebuildProjection(t.db.knex, store, p);
      expect(result.processed).toBeGreaterThan(0);
    }
    expect(await dump()).toEqual(before);
  });

  it('leaves the live projector working: later events still reach the read models', async () => {
    await at(log.like(s.p3, D));
    const { commentId } = await at(log.comment(s.p3, A, 'after the rebuild'));
    await settle();
    expect(await rows(`SELECT like_count, comment_count FROM posts WHERE id = $1`, [s.p3])).toEqual([
      { like_count: 1, comment_count: 1 },
    ]);
    expect(await rows(`SELECT content FROM post_comments WHERE id = $1`, [commentId])).toEqual([
      { content: 'after the rebuild' },
    ]);
  });
});

describe('an event whose ids are not UUIDs', () => {
  it('is skipped rather than stopping every projection of the group', async () => {
    await at(
      store.append(
        `post-${s.p3}`,
        [
          {
            type: 'CommentAdded',
            data: { commentId: 'not-a-uuid', postId: s.p3, authorId: D, content: 'x', parentCommentId: null },
            metadata: { actorId: D },
          },
          { type: 'PostLiked', data: { postId: 'nope', userId: D, likedAt: log.tick() }, metadata: {} },
        ],
        'any',
      ),
    );
    await at(log.editCaption(s.p3, 'Still projected'));
    await settle();
    expect(await rows(`SELECT caption, comment_count FROM posts WHERE id = $1`, [s.p3])).toEqual([
      { caption: 'Still projected', comment_count: 1 },
    ]);
  });
});

describe('user activity', () => {
  /** The rule, as a fold over the log: an actor's time moves only forward by a minute or more. */
  async function expected(): Promise<Record<string, string>> {
    const events = await rows(
      `SELECT metadata->>'actorId' AS actor, type, created_at FROM events ORDER BY transaction_id, position`,
    );
    const followed = new Set(allProjections.find((p) => p.name === 'user-activity')!.handles);
    const last = new Map<string, Date>();
    for (const e of events) {
      if (!followed.has(e.type) || !e.actor || e.actor === 'system') continue;
      const was = last.get(e.actor);
      if (!was || e.created_at.getTime() >= was.getTime() + 60_000) last.set(e.actor, e.created_at);
    }
    return Object.fromEntries([...last].map(([k, v]) => [k, v.toISOString()]));
  }
  const actual = async () =>
    Object.fromEntries(
      (await rows(`SELECT user_id, last_active FROM user_activity`)).map((r) => [
        r.user_id,
        r.last_active.toISOString(),
      ]),
    );

  it('moves a time forward only by a minute or more, in log order, whatever the events say', async () => {
    // Spread Bob's community events over time as if he had acted on several days and within a few seconds.
    await t.db.pool.query(
      `UPDATE events e SET created_at = e.created_at + make_interval(secs => 40 * o.n)
       FROM (SELECT position, row_number() OVER (ORDER BY transaction_id, position) AS n
             FROM events WHERE metadata->>'actorId' = $1 AND stream_id LIKE 'post%') o
       WHERE e.position = o.position`,
      [B],
    );
    const activity = allProjections.find((p) => p.name === 'user-activity')!;
    await rebuildProjection(t.db.knex, store, activity);
    const want = await expected();
    expect(await actual()).toEqual(want);
    // Bob's events are 40 s apart: his time moved, but not to his last event (the throttle skipped some).
    const bobs = await rows(
      `SELECT created_at FROM events WHERE metadata->>'actorId' = $1 ORDER BY transaction_id, position`,
      [B],
    );
    const times = bobs.map((r) => r.created_at.toISOString());
    expect(times).toContain(want[B]);
    expect(want[B]).not.toBe(times[0]);
  });

  it('moves it at a minute to the millisecond, the same whether projected live or rebuilt in memory', async () => {
    // Dave's events at 0, 59.999, 60.0004, 61, 119.5, 120.0009 and 120.5 s from a whole second, then a millisecond
    // apart: the log keeps microseconds, an event's time reads in milliseconds. His time moves at 0, 60 and 120 s
    // (not at 61 s, as it would if a minute had to be exceeded).
    await t.db.pool.query(
      `WITH o AS (SELECT position, row_number() OVER (ORDER BY transaction_id, position) AS n
                    FROM events WHERE metadata->>'actorId' = $1),
            first AS (SELECT date_trunc('second', min(created_at)) AS at FROM events WHERE metadata->>'actorId' = $1)
       UPDATE events e
          SET created_at = first.at + make_interval(secs => coalesce(($2::float8[])[o.n], 120.5 + o.n / 1000.0))
       FROM o, first WHERE e.position = o.position`,
      [D, [0, 59.999, 60.0004, 61, 119.5, 120.0009, 120.5]],
    );
    const first = (
      await rows(
        `SELECT created_at FROM events WHERE metadata->>'actorId' = $1 ORDER BY transaction_id, position LIMIT 1`,
        [D],
      )
    )[0]!.created_at as Date;
    const activity = allProjections.find((p) => p.name === 'user-activity')!;
    // The live path over the whole log again (the times were moved under the live model): in batches, as the
    // projector applies them.
    const log: RecordedEvent[] = [];
    for await (const event of store.readAll(START)) log.push(event);
    await t.db.knex.transaction(async (tx) => {
      await tx.raw(`TRUNCATE ${activity.tables.join(', ')}`);
      for (let i = 0; i < log.length; i += 100)
        await activity.applyBatch!(tx, log.slice(i, i + 100), NO_NOTICES);
    });
    const applied = await actual();
    expect(applied[D]).toBe(new Date(first.getTime() + 120_000).toISOString());
    const inMemory = await rebuildProjection(t.db.knex, store, activity);
    expect(inMemory.changedRows).toBe(0);
    expect(await actual()).toEqual(applied);
    expect(applied).toEqual(await expected());
  });

  it('follows sign-ins and the commands of every context, not what strangers can cause', async () => {
    const user = await t.api.registerVerifiedUser();
    const res = await t.api.get('/api/config', undefined, { [CONSISTENT_AFTER_HEADER]: user.position });
    expect(res.headers.get('x-consistency')).toBe('consistent');
    expect((await actual())[user.user._id]).toBeDefined();
    const handles = new Set(allProjections.find((p) => p.name === 'user-activity')!.handles);
    for (const type of ['SessionStarted', 'AdoptionRequested', 'PostLiked', 'CommentDeleted'])
      expect(handles.has(type), type).toBe(true);
    for (const type of ['PasswordResetCodeIssued', 'RegistrationCodeRejected'])
      expect(handles.has(type), type).toBe(false);
  });
});

describe("a deleted user's community data, and histories the command side would never write", () => {
  const E = 'user-erin';
  const F = 'user-frank';
  const ids = { pE: '', pF: '', c: {} as Record<string, string> };

  /** Appends one event as the command side would record it, without its rules. */
  const raw = (stream: string, type: string, data: Record<string, unknown>, actorId: string) =>
    at(store.append(stream, [{ type, data, metadata: { actorId } }], 'any'));
  const rawComment = (key: string, postId: string, authorId: string, parentCommentId: string | null) => {
    ids.c[key] = randomUUID();
    return raw(
      `post-${postId}`,
      'CommentAdded',
      {
        commentId: ids.c[key],
        postId,
        postAuthorId: 'unknown-author',
        authorId,
        content: `${key} text`,
        parentCommentId,
        parentAuthorId: null,
        addedAt: log.tick(),
      },
      authorId,
    );
  };

  /**
   * Erin: a post (liked by Frank, Alice and herself, commented on by Frank), likes of Frank's and Alice's posts,
   * and comments on Frank's post: e1 answered by Frank (f1, itself answered by Erin: e4), e2 unanswered, e5 ← e6
   * (hers) ← f3 (Frank's); e3 on Carol's post, deleted by herself. Histories beside it: Frank's post published twice,
   * a reply to a comment of another post (x1, then y1 below it: the live replies climb into that other post, as the
   * SQL's walk does), a reply to a comment that never was, a comment id used twice, ids in upper case, an edit of a
   * deleted post, a deletion naming the wrong post. Then Erin is deleted; afterwards Carol's post goes (Erin's comment on it went
   * first), Frank's f1 is deleted (its parent e1, kept emptied, loses its last live reply), Erin likes again (a
   * straggler), and she is deleted again.
   */
  beforeAll(async () => {
    ids.pE = (await at(log.publish(E, { caption: 'Erin' }))).postId;
    ids.pF = (await at(log.publish(F, { caption: 'Frank' }))).postId;
    await at(log.publish(F, { postId: ids.pF, caption: 'Frank again' }));
    for (const [post, user] of [
      [ids.pE, F],
      [ids.pE, A],
      [ids.pE, E],
      [ids.pF, E],
      [s.p1, E],
    ] as const)
      await at(log.like(post, user));
    const comment = async (key: string, post: string, user: string, parent?: string) => {
      ids.c[key] = (
        await at(log.comment(post, user, `${key} text`, parent ? ids.c[parent]! : null))
      ).commentId;
    };
    await comment('e1', ids.pF, E);
    await comment('f1', ids.pF, F, 'e1');
    await comment('e4', ids.pF, E, 'f1');
    await comment('e2', ids.pF, E);
    await comment('e5', ids.pF, E);
    await comment('e6', ids.pF, E, 'e5');
    await comment('f3', ids.pF, F, 'e6');
    await comment('e3', s.p3, E);
    await at(log.deleteComment(s.p3, ids.c.e3!));
    await comment('f2', ids.pE, F);

    await rawComment('x1', ids.pF, F, s.c.c3!);
    await rawComment('y1', ids.pF, F, ids.c.x1!);
    await rawComment('orphan', ids.pF, F, randomUUID());
    await raw(
      `post-${ids.pF}`,
      'CommentAdded',
      {
        commentId: ids.c.f2!,
        postId: ids.pF,
        postAuthorId: F,
        authorId: F,
        content: 'the same id again',
        parentCommentId: null,
        parentAuthorId: null,
        addedAt: log.tick(),
      },
      F,
    );
    await raw(
      `post-${ids.pF}`,
      'CommentAdded',
      {
        commentId: randomUUID().toUpperCase(),
        postId: ids.pF.toUpperCase(),
        postAuthorId: F,
        authorId: A,
        content: 'upper case ids',
        parentCommentId: ids.c.f3!.toUpperCase(),
        parentAuthorId: F,
        addedAt: log.tick(),
      },
      A,
    );
    await raw(
      `post-like-${ids.pF}-${B}`,
      'PostLiked',
      { postId: ids.pF.toUpperCase(), postAuthorId: F, userId: B, likedAt: log.tick() },
      B,
    );
    await raw(
      `post-${ids.pF}`,
      'CommentDeleted',
      {
        commentId: ids.c.orphan!.toUpperCase(),
        postId: ids.pF.toUpperCase(),
        authorId: F,
        actorId: F,
        byAdmin: false,
        deletedAt: log.tick(),
      },
      F,
    );
    await at(log.editCaption(s.p2, 'Edited after its deletion'));
    await raw(
      `post-${ids.pF}`,
      'CommentDeleted',
      { commentId: s.c.c3!, postId: ids.pF, authorId: C, actorId: C, byAdmin: false, deletedAt: log.tick() },
      C,
    );

    const forget = (userId: string) =>
      raw(
        `user-${userId}`,
        'UserDeleted',
        { userId, deletedBy: 'admin-1', deletedAt: log.tick() },
        'admin-1',
      );
    await forget(E);
    await at(log.deletePost(s.p3));
    await at(log.deleteComment(ids.pF, ids.c.f1!));
    await at(log.like(ids.pF, E));
    await forget(E);
    await at(log.like(ids.pF, E));
    await settle();
  });

  it('removes their posts (with every like and comment on them), likes and unanswered comments; keeps answered ones emptied, without author', async () => {
    expect(await rows(`SELECT id FROM posts WHERE id = $1`, [ids.pE])).toEqual([]);
    expect(await rows(`SELECT * FROM post_comments WHERE post_id = $1`, [ids.pE])).toEqual([]);
    const c = ids.c;
    const comments = await rows(
      `SELECT id, author_id, content, deleted, live_replies FROM post_comments WHERE id = ANY($1) ORDER BY created_at`,
      [[c.e1, c.f1, c.e4, c.e2, c.e5, c.e6, c.f3, c.e3]],
    );
    expect(comments).toEqual([
      { id: c.e1, author_id: '', content: '', deleted: true, live_replies: 0 },
      { id: c.f1, author_id: F, content: '', deleted: true, live_replies: 0 },
      { id: c.e5, author_id: '', content: '', deleted: true, live_replies: 2 },
      { id: c.e6, author_id: '', content: '', deleted: true, live_replies: 2 },
      { id: c.f3, author_id: F, content: 'f3 text', deleted: false, live_replies: 1 },
    ]);
    // The stragglers' like (recorded after the deletion) counts again: the read model follows the log.
    expect(await rows(`SELECT post_id FROM post_likes WHERE user_id = $1`, [E])).toEqual([
      { post_id: ids.pF },
    ]);
    // y1 below x1 below p1's c3: the walk up from y1 crosses into the other post (x1's own start did not).
    expect(await rows(`SELECT live_replies FROM post_comments WHERE id = $1`, [s.c.c3])).toEqual([
      { live_replies: 1 },
    ]);
    const stats = await rows(
      `SELECT user_id, posts, comments, likes_given, likes_received FROM user_community_stats WHERE user_id = ANY($1)
       ORDER BY user_id`,
      [[E, F]],
    );
    expect(stats).toEqual([
      { user_id: E, posts: 0, comments: 0, likes_given: 1, likes_received: 0 },
      // Live: f3, x1 and y1 (f1 and the orphan deleted, f2 gone with Erin's post); liked by Bob and Erin.
      { user_id: F, posts: 1, comments: 3, likes_given: 0, likes_received: 2 },
    ]);
  });

  it('rebuilds to the same rows as the live projector made, changing none', async () => {
    const before = await dump();
    for (const p of communityProjections()) {
      const result = await rebuildProjection(t.db.knex, store, p);
      expect(result.changedRows, p.name).toBe(0);
    }
    expect(await dump()).toEqual(before);
  });
});

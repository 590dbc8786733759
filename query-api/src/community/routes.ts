import { Router, type Response } from 'express';
import { COMMUNITY_MESSAGES as M, postListQuery } from '@pawhaven/contracts';
import { notFound } from '@pawhaven/platform';
import type { QueryDeps } from '../deps';
import { projectionsWriting, ReadCache } from '../http/read-cache';
import { findPost, listPosts, listUserPosts } from './posts';

/** JSON built by PostgreSQL, sent as it is. */
const sendJson = (res: Response, body: string) => res.type('json').send(body);

/** Reads of the community context (posts, likes, comments), from the community-posts read model. */
export function communityQueries({ db, consistency, config, projections }: QueryDeps): Router {
  const router = Router();
  // The feed is the hottest read (every visit to /posts, every 30-s refresh) and changes only when a post, like,
  // comment or author does: its pages are kept until one of these read models commits.
  const cache = new ReadCache(consistency, { maxEntries: config.READ_CACHE_ENTRIES, maxAgeMs: 5000 });
  const feedReadModels = projectionsWriting(projections, [
    'posts',
    'post_likes',
    'post_comments',
    'community_totals',
    'users',
  ]);

  /** The feed: newest first, paginated (X-Total-Count), each post with its likes and its newest threads. */
  router.get('/', async (req, res) => {
    const query = postListQuery.parse(req.query);
    const page = await cache.get(`feed:${query.page}:${query.limit}`, feedReadModels, () =>
      listPosts(db.pool, query),
    );
    res.setHeader('X-Total-Count', String(page.total));
    res.setHeader('X-Page', String(page.page));
    res.setHeader('X-Per-Page', String(page.limit));
    sendJson(res, page.body);
  });

  /** A user's posts, newest first (My Posts, the public profile's Posts tab). */
  router.get('/user/:userId', async (req, res) => {
    sendJson(res, await listUserPosts(db.pool, req.params.userId));
  });

  /** The post page: one post with all its comments. */
  router.get('/:id', async (req, res) => {
    const body = await cache.get(`post:${req.params.id}`, feedReadModels, () =>
      findPost(db.pool, req.params.id),
    );
    if (body === null) throw notFound(M.postNotFound);
    sendJson(res, body);
  });

  return router;
}

import { Router, type Response } from 'express';
import { COMMUNITY_MESSAGES as M, postListQuery } from '@pawhaven/contracts';
import { notFound } from '@pawhaven/platform';
import type { QueryDeps } from '../deps';
import { findPost, listPosts, listUserPosts } from './posts';

/** JSON built by PostgreSQL, sent as it is. */
const sendJson = (res: Response, body: string) => res.type('json').send(body);

/** Reads of the community context (posts, likes, comments), from the community-posts read model. */
export function communityQueries({ db }: QueryDeps): Router {
  const router = Router();

  /** The feed: newest first, paginated (X-Total-Count), each post with its likes and its newest threads. */
  router.get('/', async (req, res) => {
    const page = await listPosts(db.pool, postListQuery.parse(req.query));
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
    const body = await findPost(db.pool, req.params.id);
    if (body === null) throw notFound(M.postNotFound);
    sendJson(res, body);
  });

  return router;
}

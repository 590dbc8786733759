import { Router } from 'express';
import type { QueryDeps } from '../deps';

/** Conversations and messages, mounted at /api (TODO). */
export function chatQueries(_deps: QueryDeps): Router {
  return Router();
}

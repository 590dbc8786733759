import { isUuid } from '@pawhaven/contracts';
import type { RequestHandler } from 'express';
import { notFound, unauthorized } from '@pawhaven/platform';

/** Signed-in only: a visitor gets the flow's own wording (the spec's), a bad or ended token the usual one. */
export const signedIn =
  (message: string): RequestHandler =>
  (req, _res, next) =>
    req.auth ? next() : next(unauthorized(req.headers.authorization ? 'Authentication required' : message));

/** Ids are UUIDs: anything else names nothing (404 with `message`) and never reaches a uuid column. */
export const uuidParam = (id: unknown, message: string): string => {
  if (typeof id !== 'string' || !isUuid(id)) throw notFound(message);
  return id.toLowerCase();
};

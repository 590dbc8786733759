import type { RequestHandler } from 'express';
import { notFound, unauthorized } from '@pawhaven/platform';

/** Signed-in only: a visitor gets the flow's own wording (the spec's), a bad or ended token the usual one. */
export const signedIn =
  (message: string): RequestHandler =>
  (req, _res, next) =>
    req.auth ? next() : next(unauthorized(req.headers.authorization ? 'Authentication required' : message));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs: anything else names nothing (404 with `message`) and never reaches a uuid column. */
export const uuidParam = (id: unknown, message: string): string => {
  if (typeof id !== 'string' || !UUID.test(id)) throw notFound(message);
  return id.toLowerCase();
};

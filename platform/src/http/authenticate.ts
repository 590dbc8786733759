import type { Request, RequestHandler } from 'express';
import type { SessionCheck } from '../auth/sessions';
import type { AccessClaims, TokenService } from '../auth/tokens';
import { forbidden, unauthorized } from '../errors';

declare module 'express-serve-static-core' {
  interface Request {
    auth?: AccessClaims;
  }
}

const bearer = (req: Request) => {
  const h = req.headers.authorization;
  return h?.startsWith('Bearer ') ? h.slice(7).trim() : undefined;
};

/** Reads the bearer token when present; `requireUser` / `requireAdmin` refuse without one. */
export function authenticate(tokens: TokenService, isOpen: SessionCheck): RequestHandler {
  return async (req, _res, next) => {
    const token = bearer(req);
    if (!token) return next();
    const claims = await tokens.verify(token);
    if (!claims) return next(unauthorized('Invalid or expired token'));
    // A valid signature is not enough: the session must exist and still be open (not signed out, not reset).
    if (!(await isOpen(claims))) return next(unauthorized('Your session has ended. Please sign in again.'));
    req.auth = { userId: claims.userId, sessionId: claims.sessionId, isAdmin: claims.isAdmin };
    next();
  };
}

export const requireUser: RequestHandler = (req, _res, next) =>
  req.auth
    ? next()
    : next(unauthorized(req.headers.authorization ? 'Authentication required' : 'No token provided'));

export const requireAdmin: RequestHandler = (req, _res, next) =>
  !req.auth
    ? next(unauthorized('No token provided'))
    : req.auth.isAdmin
      ? next()
      : next(forbidden('Admins only'));

/** The signed-in user's id; only call behind requireUser. */
export const currentUserId = (req: Request): string => {
  if (!req.auth) throw unauthorized();
  return req.auth.userId;
};

import { userStream } from '@pawhaven/contracts';
import type { Request, RequestHandler } from 'express';
import type { SessionCheck } from '../auth/sessions';
import type { AccessClaims, TokenService } from '../auth/tokens';
import { forbidden, unauthorized } from '../errors';
import type { EventStore } from '../event-store/event-store';

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

/** What an administrator's account is told when it tries a community action (admins manage, they do not take part). */
export const ADMINS_CANNOT = (action: string) => `Admins cannot ${action}`;

/**
 * Signed in as a member of the community: administrators moderate it but do not take part (no adoption requests,
 * posts, likes, comments or chats). The one rule every community, adoption and chat command goes through; the
 * socket's sendMessage checks `isCommunityMember` the same way. `action` completes 'Admins cannot …'.
 */
export const requireCommunityMember =
  (action: string, signedOutMessage = 'Authentication required'): RequestHandler =>
  (req, _res, next) =>
    !req.auth
      ? next(unauthorized(req.headers.authorization ? 'Authentication required' : signedOutMessage))
      : req.auth.isAdmin
        ? next(forbidden(ADMINS_CANNOT(action)))
        : next();

/** The signed-in user's id; only call behind requireUser. */
export const currentUserId = (req: Request): string => {
  if (!req.auth) throw unauthorized();
  return req.auth.userId;
};

/**
 * The same rule for callers that hold only a user id (the socket's sendMessage): an administrator's account is
 * recognised by its registration, the first event of its stream (admins are created so, never promoted).
 */
export async function assertCommunityMember(
  store: EventStore,
  userId: string,
  action: string,
): Promise<void> {
  for await (const first of store.readStream(userStream(userId), { maxCount: 1 })) {
    if ((first.data as { isAdmin?: unknown }).isAdmin === true) throw forbidden(ADMINS_CANNOT(action));
  }
}

import cookieParser from 'cookie-parser';
import express from 'express';
import {
  authenticate,
  errorHandler,
  notFoundHandler,
  rejectUnsafeInput,
  type SessionCheck,
} from '@pawhaven/platform';
import { accountRoutes } from './accounts/routes';
import { adminRoutes } from './admin/routes';
import { adoptionRoutes } from './adoption/routes';
import { chatRoutes } from './chat/routes';
import { contactRoutes } from './contact/routes';
import { communityRoutes } from './community/routes';
import type { CommandDeps } from './deps';
import { idempotentRequests } from './http/idempotency';
import { rateLimiter } from './http/rate-limits';
import { notificationRoutes } from './notifications/routes';
import { projectionRoutes } from './projections/routes';

/** The write side: every POST/PUT/PATCH/DELETE of the product. One router per bounded context. */
export function createCommandApp(deps: CommandDeps, sessionIsOpen: SessionCheck): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.TRUST_PROXY_HOPS);
  app.use(express.json({ limit: '100kb' }));
  app.use(cookieParser());
  // No NUL or broken Unicode in the path, query, body or cookies of any route (multipart: see singleUpload).
  app.use(rejectUnsafeInput);
  app.use(authenticate(deps.tokens, sessionIsOpen));
  // After authenticate: a key belongs to the signed-in user.
  app.use(idempotentRequests(deps.db.knex));
  // Every write counts against RATE_LIMIT_WRITES (per user, or per address when anonymous), new routes included;
  // administrators' deletions against RATE_LIMIT_MODERATION instead.
  app.use(rateLimiter(deps, 'write'));
  app.use(rateLimiter(deps, 'moderation'));
  app.use('/api/auth', accountRoutes(deps));
  app.use('/api/adoptions', adoptionRoutes(deps));
  const community = communityRoutes(deps);
  app.use('/api/posts', community.posts);
  app.use('/api/comments', community.comments);
  app.use('/api', chatRoutes(deps));
  app.use('/api/notifications', notificationRoutes(deps));
  app.use('/api/contact', contactRoutes(deps));
  app.use('/api/admin/projections', projectionRoutes(deps));
  app.use('/api/admin', adminRoutes(deps));
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}

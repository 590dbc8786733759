import cookieParser from 'cookie-parser';
import express from 'express';
import {
  authenticate,
  errorHandler,
  notFoundHandler,
  rejectUnsafeInput,
  type SessionCheck,
} from '@pawhaven/platform';
import { accountQueries } from './accounts/routes';
import { adminQueries } from './admin/routes';
import { adoptionQueries } from './adoption/routes';
import { chatQueries } from './chat/routes';
import { communityQueries } from './community/routes';
import { publicPagesQueries } from './directory/routes';
import type { QueryDeps } from './deps';
import { consistentReads } from './http/consistency';
import { hideDeletedUsers } from './http/deleted-users';
import { notificationQueries } from './notifications/routes';
import { systemQueries } from './system/routes';

/** The read side: every GET of the product, served from read models. */
export function createQueryApp(deps: QueryDeps, sessionIsOpen: SessionCheck): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.TRUST_PROXY_HOPS);
  app.use(express.json({ limit: '20kb' }));
  app.use(cookieParser());
  // No NUL or broken Unicode in the path, query, body or cookies of any route (multipart: see singleUpload).
  app.use(rejectUnsafeInput);
  app.use(consistentReads(deps.consistency, deps.config.CONSISTENCY_WAIT_MS));
  // Sessions are checked in the log, deleted people hidden by it: both take effect before the read models catch up.
  app.use(authenticate(deps.tokens, sessionIsOpen));
  app.use(hideDeletedUsers(deps.db.pool, deps.projections));
  app.use(systemQueries(deps));
  app.use('/api/auth', accountQueries(deps));
  app.use('/api/adoptions', adoptionQueries(deps));
  app.use('/api/posts', communityQueries(deps));
  app.use('/api', chatQueries(deps));
  app.use('/api', publicPagesQueries(deps));
  app.use('/api/notifications', notificationQueries(deps));
  app.use('/api/admin', adminQueries(deps));
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}

/** Reads that the client sends as POST (getUserById, getAllUsers); the gateway routes these to the query side. */
export const POST_QUERIES = ['/api/auth/getUserById', '/api/auth/getAllUsers'];

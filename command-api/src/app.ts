import cookieParser from 'cookie-parser';
import express from 'express';
import {
  afterCommit,
  authenticate,
  EncryptingEventStore,
  errorHandler,
  notFoundHandler,
  PersonalDataKeys,
  recordingTrail,
  rejectUnsafeInput,
  type SessionCheck,
  type UnitsOfWork,
} from '@pawhaven/platform';
import { accountRoutes } from './accounts/routes';
import { adminRoutes } from './admin/routes';
import { adoptionRoutes } from './adoption/routes';
import { chatRoutes } from './chat/routes';
import { cleaningUpAfterDeletions } from './clean-up-store';
import { contactRoutes } from './contact/routes';
import { communityRoutes } from './community/routes';
import type { CommandDeps } from './deps';
import { idempotentRequests } from './http/idempotency';
import { rateLimiter } from './http/rate-limits';
import { notificationRoutes } from './notifications/routes';
import { projectionRoutes } from './projections/routes';

/** The write side: every POST/PUT/PATCH/DELETE of the product. One router per bounded context. */
export function createCommandApp(
  given: CommandDeps & { units: UnitsOfWork },
  sessionIsOpen: SessionCheck,
): express.Express {
  const keys =
    given.store instanceof EncryptingEventStore ? given.store.keys : new PersonalDataKeys(given.db.pool);
  const deps: CommandDeps = {
    ...given,
    // Every route appends through it: what a request read and appended is noted (whose data its idempotent answer
    // may hold), and a deletion's pictures and dev mails are cleaned up (clean-up-store.ts).
    store: cleaningUpAfterDeletions(recordingTrail(given.store), given.db.knex, given.config),
    // Mail goes out once the request's events are committed: never for a sign-up that was not, and never while
    // the transaction holds the projections back.
    mailer: { send: (mail) => afterCommit(() => given.mailer.send(mail)) },
  };
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.TRUST_PROXY_HOPS);
  app.use(express.json({ limit: '100kb' }));
  app.use(cookieParser());
  // No NUL or broken Unicode in the path, query, body or cookies of any route (multipart: see singleUpload).
  app.use(rejectUnsafeInput);
  app.use(authenticate(deps.tokens, sessionIsOpen));
  // After authenticate: a key belongs to the signed-in user.
  app.use(idempotentRequests({ db: deps.db, units: given.units, keys }));
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

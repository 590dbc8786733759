import cookieParser from 'cookie-parser';
import express from 'express';
import { authenticate, errorHandler, notFoundHandler, type SessionRevocationCheck } from '@pawhaven/platform';
import { accountRoutes } from './accounts/routes';
import { adoptionRoutes } from './adoption/routes';
import type { CommandDeps } from './deps';

/** The write side: every POST/PUT/PATCH/DELETE of the product. One router per bounded context. */
export function createCommandApp(deps: CommandDeps, isRevoked: SessionRevocationCheck): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.TRUST_PROXY_HOPS);
  app.use(express.json({ limit: '100kb' }));
  app.use(cookieParser());
  app.use(authenticate(deps.tokens, isRevoked));
  app.use('/api/auth', accountRoutes(deps));
  app.use('/api/adoptions', adoptionRoutes(deps));
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}

import { Router } from 'express';
import type { CommandDeps } from '../../deps';
import { accountsContext } from './context';
import { googleRoutes } from './google';
import { passwordRoutes } from './password';
import { profileRoutes } from './profile';
import { registrationRoutes } from './registration';
import { sessionRoutes } from './sessions';

/** The account routes, mounted at /api/auth: each group in its own module over one shared context. */
export function accountRoutes(deps: CommandDeps): Router {
  const ctx = accountsContext(deps);
  const router = Router();
  registrationRoutes(router, ctx);
  sessionRoutes(router, ctx);
  googleRoutes(router, ctx);
  passwordRoutes(router, ctx);
  profileRoutes(router, ctx);
  return router;
}

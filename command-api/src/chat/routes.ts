import { Router } from 'express';
import type { CommandDeps } from '../deps';

/** Conversations and messages, mounted at /api (TODO). */
export function chatRoutes(_deps: CommandDeps): Router {
  return Router();
}

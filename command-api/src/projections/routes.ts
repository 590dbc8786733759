import { Router } from 'express';
import { ADMIN_MESSAGES as M, rebuildRequestBody, type RebuildAcceptedDto } from '@pawhaven/contracts';
import { badRequest, currentUserId, requireAdmin, type Projection } from '@pawhaven/platform';
import { allProjections } from '@pawhaven/projections';
import type { CommandDeps } from '../deps';

/** Replaying the log into read models, started from the admin dashboard's Projections screen. */
export function projectionRoutes(
  deps: CommandDeps,
  projections: readonly Projection[] = allProjections,
): Router {
  const router = Router();
  router.use(requireAdmin);
  const runner = deps.rebuilds;

  /**
   * Starts a rebuild of one projection or 'all' in this server and answers 202 at once with its id; progress goes to
   * admins' sockets. 409 while a rebuild runs anywhere (this process, another one, the CLI).
   */
  router.post('/rebuild', async (req, res) => {
    const { name } = rebuildRequestBody.parse(req.body);
    const chosen = name === 'all' ? projections : projections.filter((p) => p.name === name);
    if (chosen.length === 0)
      throw badRequest(
        M.unknownProjection(
          name,
          projections.map((p) => p.name),
        ),
      );
    const state = await runner.start(name, chosen, currentUserId(req));
    const body: RebuildAcceptedDto = {
      message: M.rebuildStarted,
      rebuildId: state.rebuildId,
      target: name,
      names: chosen.map((p) => p.name),
      rebuild: state,
    };
    res.status(202).json(body);
  });

  return router;
}

import { Router, type Request } from 'express';
import {
  ADOPTION_MESSAGES,
  adIdOfStream,
  adoptionStream,
  COMMUNITY_MESSAGES,
  postIdOfStream,
  postStream,
  userStream,
} from '@pawhaven/contracts';
import {
  afterCommit,
  currentUserId,
  destroyPersonalDataKey,
  handleCommand,
  HttpError,
  loadState,
  logger,
  requireAdmin,
  type CommandResult,
} from '@pawhaven/platform';
import { USER_DELETION_MESSAGES, userDecider } from '../accounts/user';
import { adoptionAdDecider } from '../adoption/adoption-ad';
import { postDecider } from '../community/post';
import type { CommandDeps } from '../deps';
import { uuidParam } from '../http/route-helpers';
import { postgresReadModels } from '../ports/read-models';

/** What the dashboard is told after each deletion (the spec shows only the confirmations and the failures). */
const ADMIN_DELETION_MESSAGES = {
  user: 'User and all their data deleted',
  adoption: 'Adoption post deleted',
  adoptionRequest: 'Adoption request deleted',
  post: 'Post deleted',
  comment: 'Comment deleted',
} as const;

const positionOf = (r: Pick<CommandResult<unknown>, 'position'>) =>
  r.position === null ? undefined : String(r.position);

/**
 * Administrators' deletions, mounted at /api/admin behind requireAdmin. Each is the same command the
 * owner's own delete runs (DeleteAd, DeletePost, DeleteComment) or the admin-only one (DeleteRequest, DeleteUser),
 * through handleCommand (a stale revision is decided again; only a stream every attempt loses answers 409), with the
 * admin as actor (metadata actorId, and `byAdmin` / `deletedBy` in the events). Unknown ids answer 404; deleting
 * what is already deleted answers 200 again (`alreadyDeleted: true`) and records nothing, so a retry is harmless.
 */
export function adminRoutes(deps: CommandDeps): Router {
  const { store, db } = deps;
  const now = deps.now ?? (() => new Date());
  const router = Router();
  const readModels = postgresReadModels(db);
  router.use(requireAdmin);

  /** A deletion that finds its target already deleted (404 from the decider, but the stream shows it): 200. */
  const retried = async (err: unknown, isDeleted: () => Promise<boolean>) => {
    if (err instanceof HttpError && err.status === 404 && (await isDeleted())) return true;
    throw err;
  };

  router.delete('/user/:id', async (req: Request, res) => {
    const userId = uuidParam(req.params.id, USER_DELETION_MESSAGES.notFound);
    const adminId = currentUserId(req);
    const result = await handleCommand(
      store,
      userStream(userId),
      userDecider,
      { type: 'DeleteUser', data: { deletedBy: adminId, now: now() } },
      { actorId: adminId },
    );
    // The key of their personal fields goes as soon as the deletion is committed, rather than when the projections
    // reach it (an open transaction can hold them back for minutes); a crash here leaves it to the shredder, which
    // follows the log.
    await afterCommit(() =>
      destroyPersonalDataKey(db.knex, userId).catch((err: unknown) =>
        logger.warn({ err, userId }, "a deleted user's key is left for the shredder"),
      ),
    );
    res.json({
      message: ADMIN_DELETION_MESSAGES.user,
      position: positionOf(result),
      ...(result.events.length === 0 ? { alreadyDeleted: true } : {}),
    });
  });

  router.delete('/adoptions/:id', async (req, res) => {
    const adId = uuidParam(req.params.id, ADOPTION_MESSAGES.adNotFound);
    const adminId = currentUserId(req);
    try {
      const result = await handleCommand(
        store,
        adoptionStream(adId),
        adoptionAdDecider,
        { type: 'DeleteAd', data: { actorId: adminId, isAdmin: true, now: now() } },
        { actorId: adminId },
      );
      res.json({ message: ADMIN_DELETION_MESSAGES.adoption, position: positionOf(result) });
    } catch (err) {
      await retried(
        err,
        async () =>
          (await loadState(store, adoptionStream(adId), adoptionAdDecider)).state.status === 'deleted',
      );
      res.json({ message: ADMIN_DELETION_MESSAGES.adoption, alreadyDeleted: true });
    }
  });

  router.delete('/adoption-requests/:id', async (req, res) => {
    const requestId = uuidParam(req.params.id, ADOPTION_MESSAGES.requestNotFound);
    const adminId = currentUserId(req);
    // An admin's retry may find the request's row already gone from the read model: the whole log is searched.
    const stream = await readModels.recordingStream('adoption-request', requestId, { wholeLog: true });
    if (!stream) throw new HttpError(404, ADOPTION_MESSAGES.requestNotFound);
    const result = await handleCommand(
      store,
      adoptionStream(adIdOfStream(stream)),
      adoptionAdDecider,
      { type: 'DeleteRequest', data: { requestId, actorId: adminId, isAdmin: true, now: now() } },
      { actorId: adminId },
    );
    res.json({
      message: ADMIN_DELETION_MESSAGES.adoptionRequest,
      position: positionOf(result),
      ...(result.events.length === 0 ? { alreadyDeleted: true } : {}),
    });
  });

  router.delete('/posts/:id', async (req, res) => {
    const postId = uuidParam(req.params.id, COMMUNITY_MESSAGES.postNotFound);
    const adminId = currentUserId(req);
    try {
      const result = await handleCommand(
        store,
        postStream(postId),
        postDecider,
        { type: 'DeletePost', data: { actorId: adminId, isAdmin: true, now: now() } },
        { actorId: adminId },
      );
      res.json({ message: ADMIN_DELETION_MESSAGES.post, position: positionOf(result) });
    } catch (err) {
      await retried(
        err,
        async () => (await loadState(store, postStream(postId), postDecider)).state.status === 'deleted',
      );
      res.json({ message: ADMIN_DELETION_MESSAGES.post, alreadyDeleted: true });
    }
  });

  router.delete('/comments/:id', async (req, res) => {
    const commentId = uuidParam(req.params.id, COMMUNITY_MESSAGES.commentNotFound);
    const adminId = currentUserId(req);
    const stream = await readModels.recordingStream('post-comment', commentId, { wholeLog: true });
    if (!stream) throw new HttpError(404, COMMUNITY_MESSAGES.commentNotFound);
    const postId = postIdOfStream(stream);
    try {
      const result = await handleCommand(
        store,
        postStream(postId),
        postDecider,
        { type: 'DeleteComment', data: { commentId, actorId: adminId, isAdmin: true, now: now() } },
        { actorId: adminId },
      );
      res.json({ message: ADMIN_DELETION_MESSAGES.comment, position: positionOf(result) });
    } catch (err) {
      // Deleted already, by itself or with its post: either way nothing is left to delete.
      await retried(err, async () => {
        const { state } = await loadState(store, postStream(postId), postDecider);
        return state.status === 'deleted' || state.comments[commentId]?.deleted === true;
      });
      res.json({ message: ADMIN_DELETION_MESSAGES.comment, alreadyDeleted: true });
    }
  });

  return router;
}

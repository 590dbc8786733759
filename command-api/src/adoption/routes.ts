import { randomUUID } from 'node:crypto';
import { Router, type Request, type RequestHandler } from 'express';
import {
  ADOPTION_LIMITS,
  ADOPTION_MESSAGES as M,
  adoptionAdBody,
  adoptionAdUpdateBody,
  adoptionRequestBody,
  adIdOfStream,
  adoptionStream,
  DEFAULT_AGE_UNIT,
  DEFAULT_BREED,
  requestDecisionBody,
  type AdoptionAdInput,
  type PetDetails,
} from '@pawhaven/contracts';
import {
  badRequest,
  ConcurrencyError,
  currentUserId,
  handleCommand,
  loadState,
  notFound,
  unauthorized,
} from '@pawhaven/platform';
import type { CommandDeps } from '../deps';
import { singleUpload, uploadedFile } from '../http/upload';
import { storeImage, type ImageKind } from '../images/image-store';
import { adoptionAdDecider, type AdoptionCommand } from './adoption-ad';

const adImage: ImageKind = {
  maxBytes: ADOPTION_LIMITS.imageMaxBytes,
  width: 1200,
  height: 1200,
  fit: 'inside',
  tooLarge: M.imageTooLarge,
  invalid: M.imageInvalid,
};
const proofImage: ImageKind = { ...adImage, maxBytes: ADOPTION_LIMITS.proofImageMaxBytes };

/** Signed-in only, with the spec's wording for each flow. */
const signedIn =
  (message: string): RequestHandler =>
  (req, _res, next) =>
    req.auth ? next() : next(unauthorized(req.headers.authorization ? 'Authentication required' : message));

const toDetails = (input: AdoptionAdInput, imageUrl: string): PetDetails => ({
  name: input.name,
  age: input.age,
  ageUnit: input.ageUnit ?? DEFAULT_AGE_UNIT,
  petType: input.petType,
  breed: input.breed || DEFAULT_BREED,
  gender: input.gender ?? null,
  size: input.size ?? null,
  vaccinated: input.vaccinated ?? null,
  spayedNeutered: input.spayedNeutered ?? null,
  goodWithChildren: input.goodWithChildren ?? null,
  goodWithDogs: input.goodWithDogs ?? null,
  goodWithCats: input.goodWithCats ?? null,
  description: input.description,
  location: input.location,
  imageUrl,
});

export function adoptionRoutes(deps: CommandDeps): Router {
  const { store, db } = deps;
  const now = deps.now ?? (() => new Date());
  const router = Router();

  /**
   * A concurrent append to the same ad (another user's request, the owner's other tab) only means our decision
   * was made on a stale revision: decide again on the fresh one. The rules then answer (e.g. 409 'already
   * answered' for the losing accept) instead of refusing a request that does not conflict at all.
   */
  const run = async (adId: string, command: AdoptionCommand, actorId: string) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await handleCommand(store, adoptionStream(adId), adoptionAdDecider, command, { actorId });
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= 10) throw error;
      }
    }
  };

  const loadAd = (adId: string) => loadState(store, adoptionStream(adId), adoptionAdDecider);

  /**
   * Which ad a request belongs to (request ids are global). The read model knows every request up to the
   * adoption-ads checkpoint (read first); one sent a moment ago may lie past it, so the unprojected tail of the log
   * is searched too. Otherwise withdrawing or answering right after the request answers 404.
   */
  const adOfRequest = async (requestId: string) => {
    const checkpoint = await db
      .knex('projection_checkpoints')
      .where({ name: 'adoption-ads' })
      .first<{ transaction_id: string; position: string } | undefined>('transaction_id', 'position');
    const row = await db
      .knex('adoption_requests')
      .where({ id: requestId })
      .first<{ ad_id: string } | undefined>('ad_id');
    if (row) return row.ad_id;
    const tail = await db.knex.raw<{ rows: { stream_id: string }[] }>(
      `SELECT stream_id FROM events WHERE (transaction_id, position) > (?::text::xid8, ?::bigint)
         AND type = 'AdoptionRequested' AND data->>'requestId' = ? LIMIT 1`,
      [checkpoint?.transaction_id ?? '0', checkpoint?.position ?? '0', requestId],
    );
    const streamId = tail.rows[0]?.stream_id;
    if (!streamId) throw notFound(M.requestNotFound);
    return adIdOfStream(streamId);
  };

  const validUuid = (id: string, message: string) => {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound(message);
    return id;
  };

  router.post(
    '/',
    signedIn(M.mustBeLoggedInToCreate),
    singleUpload('image', ADOPTION_LIMITS.imageMaxBytes, M.imageTooLarge),
    async (req, res) => {
      const ownerId = currentUserId(req);
      const input = adoptionAdBody.parse(req.body ?? {});
      const file = uploadedFile(req);
      if (!file) throw badRequest(M.imageRequired);
      const imageUrl = await storeImage(db.knex, file.buffer, adImage);
      const adId = randomUUID();
      const result = await run(
        adId,
        { type: 'PublishAd', data: { adId, ownerId, details: toDetails(input, imageUrl), now: now() } },
        ownerId,
      );
      res
        .status(201)
        .json({ ...adResponse(adId, result.state), message: M.created, position: String(result.position) });
    },
  );

  router.put('/requests/:requestId', signedIn('Authentication required'), async (req, res) => {
    const requestId = validUuid(req.params.requestId as string, M.requestNotFound);
    const { status } = requestDecisionBody.parse(req.body ?? {});
    const actorId = currentUserId(req);
    const adId = await adOfRequest(requestId);
    const type = status === 'accepted' ? 'AcceptRequest' : 'RejectRequest';
    const result = await run(adId, { type, data: { requestId, actorId, now: now() } }, actorId);
    res.json({
      message: status === 'accepted' ? M.accepted : M.rejected,
      post: adResponse(adId, result.state),
      position: String(result.position),
    });
  });

  router.post('/requests/:requestId/withdraw', signedIn('Authentication required'), async (req, res) => {
    const requestId = validUuid(req.params.requestId as string, M.requestNotFound);
    const actorId = currentUserId(req);
    const adId = await adOfRequest(requestId);
    const result = await run(
      adId,
      { type: 'WithdrawRequest', data: { requestId, actorId, now: now() } },
      actorId,
    );
    res.json({ message: M.withdrawn, position: String(result.position) });
  });

  router.put(
    '/:id',
    signedIn('Authentication required'),
    singleUpload('image', ADOPTION_LIMITS.imageMaxBytes, M.imageTooLarge),
    async (req, res) => {
      const adId = validUuid(req.params.id as string, M.adNotFound);
      const actorId = currentUserId(req);
      const input = adoptionAdUpdateBody.parse(req.body ?? {});
      const file = uploadedFile(req);
      // Check the ad and the owner before keeping a new image.
      const changes: Partial<PetDetails> = Object.fromEntries(
        Object.entries(input).filter(([, v]) => v !== undefined),
      );
      if (file)
        adoptionAdDecider.decide(
          { type: 'UpdateAd', data: { actorId, changes, now: now() } },
          (await loadAd(adId)).state,
        );
      if (file) changes.imageUrl = await storeImage(db.knex, file.buffer, adImage);
      const result = await run(adId, { type: 'UpdateAd', data: { actorId, changes, now: now() } }, actorId);
      res.json({
        ...adResponse(adId, result.state),
        message: 'Adoption post updated',
        position: result.position === null ? undefined : String(result.position),
      });
    },
  );

  router.delete('/:id', signedIn('Authentication required'), async (req, res) => {
    const adId = validUuid(req.params.id as string, M.adNotFound);
    const actorId = currentUserId(req);
    const result = await run(
      adId,
      { type: 'DeleteAd', data: { actorId, isAdmin: req.auth?.isAdmin ?? false, now: now() } },
      actorId,
    );
    res.json({ message: M.deleted, position: String(result.position) });
  });

  router.post(
    '/:postId/request',
    signedIn(M.mustBeLoggedInToRequest),
    singleUpload('petHistoryImage', ADOPTION_LIMITS.proofImageMaxBytes, M.imageTooLarge),
    async (req: Request, res) => {
      const adId = validUuid(req.params.postId as string, M.adNotFound);
      const requesterId = currentUserId(req);
      const input = adoptionRequestBody.parse(req.body ?? {});
      const requestId = randomUUID();
      const command = (petHistoryImage: string | null): AdoptionCommand => ({
        type: 'RequestAdoption',
        data: { requestId, requesterId, ...input, petHistoryImage, now: now() },
      });
      const file = uploadedFile(req);
      let petHistoryImage: string | null = null;
      if (file) {
        // Refuse (own ad, not available, duplicate) before keeping the image.
        adoptionAdDecider.decide(command(null), (await loadAd(adId)).state);
        petHistoryImage = await storeImage(db.knex, file.buffer, proofImage);
      }
      const result = await run(adId, command(petHistoryImage), requesterId);
      res.status(201).json({
        message: 'Adoption request sent',
        request: { _id: requestId, id: requestId, adId, status: 'pending', petHistoryImage, ...input },
        position: String(result.position),
      });
    },
  );

  return router;
}

const adResponse = (adId: string, state: ReturnType<typeof adoptionAdDecider.initialState>) => ({
  _id: adId,
  id: adId,
  ...state.details,
  status: state.status,
  userId: state.ownerId,
});

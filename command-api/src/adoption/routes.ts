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
import { badRequest, currentUserId, handleCommand, notFound, unauthorized } from '@pawhaven/platform';
import type { CommandDeps } from '../deps';
import { rateLimits } from '../http/rate-limits';
import { newIdFor } from '../http/idempotency';
import { singleUpload, uploadedFile } from '../http/upload';
import { withStagedImage, type ImageKind } from '../images/image-store';
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
  const limits = rateLimits(deps);
  const router = Router();

  const run = (adId: string, command: AdoptionCommand, actorId: string) =>
    handleCommand(store, adoptionStream(adId), adoptionAdDecider, command, { actorId });

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
    limits.newAd,
    limits.upload,
    singleUpload('image', ADOPTION_LIMITS.imageMaxBytes, M.imageTooLarge),
    async (req, res) => {
      const ownerId = currentUserId(req);
      const input = adoptionAdBody.parse(req.body ?? {});
      const file = uploadedFile(req);
      if (!file) throw badRequest(M.imageRequired);
      const adId = newIdFor(req, 'adoption-ad');
      const result = await withStagedImage(
        db.knex,
        { bytes: file.buffer, kind: adImage, streamId: adoptionStream(adId) },
        (imageUrl) =>
          run(
            adId,
            { type: 'PublishAd', data: { adId, ownerId, details: toDetails(input, imageUrl), now: now() } },
            ownerId,
          ),
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
    limits.upload,
    singleUpload('image', ADOPTION_LIMITS.imageMaxBytes, M.imageTooLarge),
    async (req, res) => {
      const adId = validUuid(req.params.id as string, M.adNotFound);
      const actorId = currentUserId(req);
      const input = adoptionAdUpdateBody.parse(req.body ?? {});
      const file = uploadedFile(req);
      const changes: Partial<PetDetails> = Object.fromEntries(
        Object.entries(input).filter(([, v]) => v !== undefined),
      );
      const result = await withStagedImage(
        db.knex,
        file && { bytes: file.buffer, kind: adImage, streamId: adoptionStream(adId) },
        (imageUrl) =>
          run(
            adId,
            {
              type: 'UpdateAd',
              data: { actorId, changes: imageUrl ? { ...changes, imageUrl } : changes, now: now() },
            },
            actorId,
          ),
      );
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
    limits.adoptionRequest,
    limits.upload,
    singleUpload('petHistoryImage', ADOPTION_LIMITS.proofImageMaxBytes, M.imageTooLarge),
    async (req: Request, res) => {
      const adId = validUuid(req.params.postId as string, M.adNotFound);
      const requesterId = currentUserId(req);
      const input = adoptionRequestBody.parse(req.body ?? {});
      const requestId = newIdFor(req, 'adoption-request');
      const file = uploadedFile(req);
      const { petHistoryImage, result } = await withStagedImage(
        db.knex,
        file && { bytes: file.buffer, kind: proofImage, streamId: adoptionStream(adId) },
        async (petHistoryImage) => ({
          petHistoryImage,
          result: await run(
            adId,
            {
              type: 'RequestAdoption',
              data: { requestId, requesterId, ...input, petHistoryImage, now: now() },
            },
            requesterId,
          ),
        }),
      );
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

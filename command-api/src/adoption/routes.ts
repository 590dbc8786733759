import { Router, type Request } from 'express';
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
  currentUserId,
  handleCommand,
  notFound,
  requireCommunityMember,
} from '@pawhaven/platform';
import { creatorIsDeleted } from '../accounts/deleted-users';
import type { CommandDeps } from '../deps';
import { rateLimits } from '../http/rate-limits';
import { newIdFor } from '../http/idempotency';
import { signedIn, uuidParam } from '../http/route-helpers';
import { postgresReadModels } from '../ports/read-models';
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
const proofImage: ImageKind = {
  ...adImage,
  maxBytes: ADOPTION_LIMITS.proofImageMaxBytes,
  tooLarge: M.proofImageTooLarge,
};

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
  const readModels = postgresReadModels(db);

  const run = (adId: string, command: AdoptionCommand, actorId: string) =>
    handleCommand(store, adoptionStream(adId), adoptionAdDecider, command, { actorId });

  /** Which ad a request belongs to (request ids are global), also right after it was sent. */
  const adOfRequest = async (requestId: string) => {
    const stream = await readModels.recordingStream('adoption-request', requestId);
    if (!stream) throw notFound(M.requestNotFound);
    return adIdOfStream(stream);
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
    const requestId = uuidParam(req.params.requestId as string, M.requestNotFound);
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
    const requestId = uuidParam(req.params.requestId as string, M.requestNotFound);
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
      const adId = uuidParam(req.params.id as string, M.adNotFound);
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
    const adId = uuidParam(req.params.id as string, M.adNotFound);
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
    requireCommunityMember('send adoption requests', M.mustBeLoggedInToRequest),
    limits.adoptionRequest,
    limits.upload,
    singleUpload('petHistoryImage', ADOPTION_LIMITS.proofImageMaxBytes, M.proofImageTooLarge),
    async (req: Request, res) => {
      const adId = uuidParam(req.params.postId as string, M.adNotFound);
      const requesterId = currentUserId(req);
      const input = adoptionRequestBody.parse(req.body ?? {});
      const requestId = newIdFor(req, 'adoption-request');
      // The ad of a deleted user is gone from every list: nothing more is sent to it.
      if (await creatorIsDeleted(db.knex, adoptionStream(adId), 'ownerId')) throw notFound(M.adNotFound);
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

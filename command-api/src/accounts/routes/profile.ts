import type { Router } from 'express';
import { ACCOUNT_LIMITS, ACCOUNT_MESSAGES, updateProfileBody, userStream } from '@pawhaven/contracts';
import { badRequest, currentUserId, requireUser } from '@pawhaven/platform';
import { singleUpload, uploadedFile } from '../../http/upload';
import { withStagedImage } from '../../images/image-store';
import { userDto } from '../user-dto';
import type { AccountsContext } from './context';

/** The profile: /update-profile, /upload-profile-image and /remove-profile-image. */
export function profileRoutes(router: Router, ctx: AccountsContext): void {
  const { deps, limits, run, ownId } = ctx;

  router.post('/update-profile', requireUser, async (req, res) => {
    const body = updateProfileBody.parse(req.body);
    const userId = ownId(req, body.id);
    // Fields left out keep their value.
    const result = await run(userId, (s) => ({
      type: 'UpdateProfile',
      data: { phone: body.phone ?? s.phone, city: body.city ?? s.city, about: body.about ?? s.about },
    }));
    res.json({
      message: ACCOUNT_MESSAGES.profileUpdated,
      user: userDto(result.state),
      position: String(result.position),
    });
  });

  const profileImage = {
    maxBytes: ACCOUNT_LIMITS.profileImageMaxBytes,
    width: 400,
    height: 400,
    fit: 'cover' as const,
    tooLarge: ACCOUNT_MESSAGES.imageTooLarge,
    invalid: ACCOUNT_MESSAGES.imageInvalid,
  };

  router.post(
    '/upload-profile-image',
    requireUser,
    limits.upload,
    singleUpload('image', ACCOUNT_LIMITS.profileImageMaxBytes, ACCOUNT_MESSAGES.imageTooLarge),
    async (req, res) => {
      const userId = currentUserId(req);
      const file = uploadedFile(req);
      if (!file) throw badRequest(ACCOUNT_MESSAGES.imageInvalid);
      const { path, result } = await withStagedImage(
        deps.db.knex,
        { bytes: file.buffer, kind: profileImage, streamId: userStream(userId) },
        async (path) => ({
          path,
          result: await run(userId, { type: 'ChangeProfileImage', data: { profileImage: path } }),
        }),
      );
      res.json({
        success: true,
        message: ACCOUNT_MESSAGES.imageUploaded,
        data: { profileImage: path },
        user: userDto(result.state),
        position: String(result.position),
      });
    },
  );

  router.delete('/remove-profile-image', requireUser, async (req, res) => {
    const result = await run(currentUserId(req), { type: 'RemoveProfileImage', data: {} });
    res.json({
      success: true,
      message: ACCOUNT_MESSAGES.imageRemoved,
      user: userDto(result.state),
      position: result.position === null ? undefined : String(result.position),
    });
  });
}

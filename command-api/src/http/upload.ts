import multer from 'multer';
import type { Request, RequestHandler } from 'express';
import { assertSafeInput, HttpError } from '@pawhaven/platform';
import { claimAfterUpload } from './idempotency';

const unreadable = (field: string) =>
  `The upload could not be read: send multipart/form-data with the image in the form field '${field}'`;

/**
 * Accepts one file in memory; the image store checks the bytes themselves. Every multipart route goes through
 * here, so a malformed body (no boundary, cut short) is a 400, the parsed fields get the same safe-text check
 * as JSON bodies, and an Idempotency-Key is claimed once the body is read, its fingerprint covering the fields and
 * the file's bytes (`claimAfterUpload`).
 */
export function singleUpload(field: string, maxBytes: number, tooLarge: string): RequestHandler {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxBytes, files: 1, fields: 30 },
  }).single(field);
  return (req, res, next) =>
    upload(req, res, (err: unknown) => {
      if (!err) {
        const file = uploadedFile(req);
        try {
          assertSafeInput(req.body, '');
          if (file) assertSafeInput({ filename: file.originalname }, '');
        } catch (unsafe) {
          return next(unsafe);
        }
        return claimAfterUpload(req, next, { fields: req.body, file });
      }
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') return next(new HttpError(413, tooLarge));
        if (err.code === 'LIMIT_UNEXPECTED_FILE')
          return next(new HttpError(400, `Send the image in the form field '${field}'`));
        return next(new HttpError(400, err.message));
      }
      // busboy's own failures (no boundary, truncated body, malformed headers) are plain Errors.
      if (err instanceof Error && !(err instanceof HttpError))
        return next(new HttpError(400, unreadable(field)));
      next(err);
    });
}

export const uploadedFile = (req: Request) => (req as Request & { file?: Express.Multer.File }).file;

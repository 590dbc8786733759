import multer from 'multer';
import type { Request, RequestHandler } from 'express';
import { HttpError } from '@pawhaven/platform';

/** Accepts one file in memory; the image store checks the bytes themselves. */
export function singleUpload(field: string, maxBytes: number, tooLarge: string): RequestHandler {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxBytes, files: 1, fields: 30 },
  }).single(field);
  return (req, res, next) =>
    upload(req, res, (err: unknown) => {
      if (!err) return next();
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') return next(new HttpError(413, tooLarge));
        if (err.code === 'LIMIT_UNEXPECTED_FILE')
          return next(new HttpError(400, `Send the image in the form field '${field}'`));
        return next(new HttpError(400, err.message));
      }
      next(err);
    });
}

export const uploadedFile = (req: Request) => (req as Request & { file?: Express.Multer.File }).file;

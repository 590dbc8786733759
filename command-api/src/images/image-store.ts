import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { Knex } from 'knex';
import { HttpError } from '@pawhaven/platform';

const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

export type ImageKind = {
  maxBytes: number;
  width: number;
  height: number;
  fit: 'cover' | 'inside';
  tooLarge: string;
  invalid: string;
};

/**
 * Checks the bytes (not the file name) really are an image, resizes it, stores it as WebP and answers the path
 * it is served at. Stored in PostgreSQL so the embedded default keeps everything under one data directory.
 */
export async function storeImage(knex: Knex, bytes: Buffer, kind: ImageKind): Promise<string> {
  if (bytes.length >= kind.maxBytes) throw new HttpError(413, kind.tooLarge);
  let format: string | undefined;
  try {
    format = (await sharp(bytes, { limitInputPixels: 50_000_000 }).metadata()).format;
  } catch {
    throw new HttpError(415, kind.invalid);
  }
  if (!format || !ACCEPTED.has(format)) throw new HttpError(415, kind.invalid);
  const { data, info } = await sharp(bytes, { limitInputPixels: 50_000_000 })
    .rotate()
    .resize({
      width: kind.width,
      height: kind.height,
      fit: kind.fit,
      withoutEnlargement: kind.fit === 'inside',
    })
    .webp({ quality: 82 })
    .toBuffer({ resolveWithObject: true })
    .catch(() => {
      throw new HttpError(415, kind.invalid);
    });
  const id = randomBytes(12).toString('hex');
  await knex('images').insert({
    id,
    content_type: 'image/webp',
    bytes: data,
    width: info.width,
    height: info.height,
  });
  return `/api/images/${id}`;
}

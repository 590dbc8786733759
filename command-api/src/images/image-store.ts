import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { Knex } from 'knex';
import { afterUnitOfWork, HttpError, logger } from '@pawhaven/platform';

const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

export type ImageKind = {
  maxBytes: number;
  width: number;
  height: number;
  fit: 'cover' | 'inside';
  tooLarge: string;
  invalid: string;
  /** The formats accepted, as sharp names them (checked by content); every format sharp reads well when absent. */
  formats?: readonly string[];
};

/** An uploaded image on its way into a command: the raw bytes, how to treat them, and the stream they are for. */
export type ImageUpload = {
  bytes: Buffer;
  kind: ImageKind;
  /** The stream whose command will reference the image; an image is kept only once an event there names it. */
  streamId: string;
};

/** How old a staged image must be before the sweeper settles it (no command takes minutes). */
const STAGED_IMAGE_MAX_AGE_SECONDS = 10 * 60;

const imagePath = (id: string) => `/api/images/${id}`;

/**
 * Checks the bytes (not the file name) really are an image, resizes it and encodes it as WebP, in memory: a bad
 * file is refused (413/415) before anything is stored.
 */
async function processImage(bytes: Buffer, kind: ImageKind) {
  if (bytes.length >= kind.maxBytes) throw new HttpError(413, kind.tooLarge);
  let format: string | undefined;
  try {
    format = (await sharp(bytes, { limitInputPixels: 50_000_000 }).metadata()).format;
  } catch {
    throw new HttpError(415, kind.invalid);
  }
  if (!format || !ACCEPTED.has(format) || (kind.formats && !kind.formats.includes(format)))
    throw new HttpError(415, kind.invalid);
  return sharp(bytes, { limitInputPixels: 50_000_000 })
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
}

/**
 * The one way to keep an uploaded image: every command that carries an image runs inside this.
 *
 * The image is checked and encoded in memory (a bad file is refused before anything is stored), stored *staged*
 * (served already, but marked with the stream it is for), and `command` runs with its path. Then, whatever the
 * outcome, it is settled: kept if an event of its stream names it (the command was accepted, or its append failed
 * only on the way back), deleted otherwise (refused, failed, or accepted without recording anything). A crash in
 * between leaves a staged row, which `sweepStagedImages` settles the same way minutes later. So a refused command
 * never leaves a file behind, and an accepted one never loses its image.
 *
 * Without an upload (`undefined`) the command runs with `null`.
 */
export async function withStagedImage<T>(
  knex: Knex,
  upload: ImageUpload,
  command: (path: string) => Promise<T>,
): Promise<T>;
export async function withStagedImage<T>(
  knex: Knex,
  upload: ImageUpload | undefined,
  command: (path: string | null) => Promise<T>,
): Promise<T>;
export async function withStagedImage<T>(
  knex: Knex,
  upload: ImageUpload | undefined,
  command: (path: string) => Promise<T>,
): Promise<T> {
  if (!upload) return (command as (path: string | null) => Promise<T>)(null);
  const { data, info } = await processImage(upload.bytes, upload.kind);
  const id = randomBytes(12).toString('hex');
  await knex('images').insert({
    id,
    content_type: 'image/webp',
    bytes: data,
    width: info.width,
    height: info.height,
    staged_for: upload.streamId,
  });
  try {
    return await command(imagePath(id));
  } finally {
    // Accepted, refused or failed: the image stays exactly when an event of its stream names it (once the request's
    // unit of work, if any, has committed or not: until then its events are invisible here).
    await afterUnitOfWork(() =>
      settleStagedImages(knex, { id }).catch((err: unknown) => {
        logger.warn({ err, imageId: id }, 'staged image left for the sweeper');
      }),
    );
  }
}

/**
 * Settles staged images: each one an event of its stream names is confirmed, every other one is deleted. Rows another
 * process is settling are skipped. Answers how many were kept and how many deleted.
 */
async function settleStagedImages(
  knex: Knex,
  which: { id: string } | { olderThanSeconds: number },
): Promise<{ kept: number; deleted: number }> {
  const filter = 'id' in which ? 'i.id = ?' : `i.created_at < now() - ? * interval '1 second'`;
  const param = 'id' in which ? which.id : which.olderThanSeconds;
  const { rows } = await knex.raw<{ rows: { kept: number; deleted: number }[] }>(
    `WITH staged AS (
       SELECT i.id, EXISTS (
         SELECT 1 FROM events e
          WHERE e.stream_id = i.staged_for AND strpos(e.data::text, '/api/images/' || i.id) > 0
       ) AS referenced
       FROM images i
       WHERE i.staged_for IS NOT NULL AND ${filter}
       FOR UPDATE OF i SKIP LOCKED
     ),
     kept AS (
       UPDATE images SET staged_for = NULL FROM staged
        WHERE images.id = staged.id AND staged.referenced RETURNING images.id
     ),
     deleted AS (
       DELETE FROM images USING staged
        WHERE images.id = staged.id AND NOT staged.referenced RETURNING images.id
     )
     SELECT (SELECT count(*) FROM kept)::int AS kept, (SELECT count(*) FROM deleted)::int AS deleted`,
    [param],
  );
  return rows[0] ?? { kept: 0, deleted: 0 };
}

/**
 * Settles the staged images older than `olderThanSeconds` (a crash between storing and confirming left them):
 * referenced ones are kept, the rest deleted. Safe to run from several processes at once. (Pictures of deleted
 * content are not its business: the `released-images` reactor deletes them from the log, crash or not.)
 */
export const sweepStagedImages = (knex: Knex, olderThanSeconds = STAGED_IMAGE_MAX_AGE_SECONDS) =>
  settleStagedImages(knex, { olderThanSeconds });

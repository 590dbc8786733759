import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { DATABASE_UNAVAILABLE, noteIfDatabaseUnavailable } from '../db/availability';
import { ConcurrencyError } from '../event-store/event-store';
import { HttpError } from '../errors';
import { logger } from '../logger';

/** What a failure is answered with, over HTTP and the socket alike. */
export type ErrorAnswer = {
  status: number;
  message: string;
  /** A zod refusal: the first message of each field. */
  fields?: Record<string, string>;
  details?: unknown;
  /** Try again after this many seconds (the database is away). */
  retryAfterSeconds?: number;
};

/** How soon a client may try again after a 503 (the database restarting usually takes a few seconds). */
export const RETRY_AFTER_SECONDS = 2;

/**
 * The one mapping from a failure to its answer (logged here, once): bad input is never a 500, and the database being
 * away is a 503 that says so. HTTP's error handler and every socket event answer through it.
 */
export function errorAnswer(err: unknown): ErrorAnswer {
  if (err instanceof ZodError) {
    const fields: Record<string, string> = {};
    for (const issue of err.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
    return { status: 400, message: Object.values(fields)[0] ?? 'Invalid input', fields };
  }
  if (err instanceof ConcurrencyError) return { status: 409, message: err.message };
  if (err instanceof HttpError)
    return { status: err.status, message: err.message, ...(err.details ? { details: err.details } : {}) };
  // A data exception from PostgreSQL (class 22: invalid text for a uuid, a number out of range…) means a value
  // from the request slipped past validation: still the client's input, so a 400, but logged so we add a rule.
  const pgCode = (err as { code?: unknown } | null)?.code;
  if (
    typeof pgCode === 'string' &&
    /^22[0-9A-Z]{3}$/.test(pgCode) &&
    (err as { severity?: unknown }).severity
  ) {
    logger.warn({ err }, 'input reached the database unvalidated');
    return { status: 400, message: 'The request contains a value that is not valid here' };
  }
  // body-parser and multer failures carry a status (400 malformed JSON, 413 too large).
  const status =
    (err as { status?: number; statusCode?: number } | null)?.status ??
    (err as { statusCode?: number } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const message =
      status === 413
        ? 'The request is too large'
        : (err as { type?: string }).type === 'entity.parse.failed'
          ? 'The request body is not valid JSON'
          : ((err as Error).message ?? 'Bad request');
    return { status, message };
  }
  // A restart, a failover, a dropped connection: nobody's fault, and over in a moment.
  if (noteIfDatabaseUnavailable(err, 'request'))
    return { status: 503, message: DATABASE_UNAVAILABLE, retryAfterSeconds: RETRY_AFTER_SECONDS };
  logger.error({ err }, 'unhandled error');
  return { status: 500, message: 'Something went wrong on our side' };
}

/** Turns every failure into `{ message, error }` with a fitting status (see errorAnswer). */
export const errorHandler: ErrorRequestHandler = (err, _req, res, _next) => {
  if (res.headersSent) return;
  const { status, message, fields, details, retryAfterSeconds } = errorAnswer(err);
  if (retryAfterSeconds) res.setHeader('Retry-After', String(retryAfterSeconds));
  res.status(status).json({
    message,
    error: status === 500 ? 'Internal error' : message,
    ...(fields ? { fields } : {}),
    ...(details ? { details } : {}),
  });
};

export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ message: 'Not found', error: 'Not found' });
};

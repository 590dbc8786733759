import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { ConcurrencyError } from '../event-store/event-store';
import { HttpError } from '../errors';
import { logger } from '../logger';

/** Turns every failure into `{ message, error }` with a fitting status; bad input is never a 500. */
export const errorHandler: ErrorRequestHandler = (err, _req, res, _next) => {
  if (res.headersSent) return;
  if (err instanceof ZodError) {
    const fields: Record<string, string> = {};
    for (const issue of err.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
    const message = Object.values(fields)[0] ?? 'Invalid input';
    res.status(400).json({ message, error: message, fields });
    return;
  }
  if (err instanceof ConcurrencyError) {
    res.status(409).json({ message: err.message, error: err.message });
    return;
  }
  if (err instanceof HttpError) {
    res
      .status(err.status)
      .json({ message: err.message, error: err.message, ...(err.details ? { details: err.details } : {}) });
    return;
  }
  // A data exception from PostgreSQL (class 22: invalid text for a uuid, a number out of range…) means a value
  // from the request slipped past validation: still the client's input, so a 400, but logged so we add a rule.
  const pgCode = (err as { code?: unknown }).code;
  if (
    typeof pgCode === 'string' &&
    /^22[0-9A-Z]{3}$/.test(pgCode) &&
    (err as { severity?: unknown }).severity
  ) {
    logger.warn({ err }, 'input reached the database unvalidated');
    const message = 'The request contains a value that is not valid here';
    res.status(400).json({ message, error: message });
    return;
  }
  // body-parser and multer failures carry a status (400 malformed JSON, 413 too large).
  const status =
    (err as { status?: number; statusCode?: number }).status ?? (err as { statusCode?: number }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const message =
      status === 413
        ? 'The request is too large'
        : (err as { type?: string }).type === 'entity.parse.failed'
          ? 'The request body is not valid JSON'
          : ((err as Error).message ?? 'Bad request');
    res.status(status).json({ message, error: message });
    return;
  }
  logger.error({ err }, 'unhandled error');
  res.status(500).json({ message: 'Something went wrong on our side', error: 'Internal error' });
};

export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ message: 'Not found', error: 'Not found' });
};

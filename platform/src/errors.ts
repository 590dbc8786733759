/** An error the HTTP layer turns into `{ message, error }` with the given status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** A rule of the domain refused a command; deciders throw it, routes map it to 4xx. */
export class DomainError extends HttpError {}

export const badRequest = (message: string, details?: unknown) => new DomainError(400, message, details);
export const unauthorized = (message = 'Authentication required') => new DomainError(401, message);
export const forbidden = (message = 'You are not allowed to do this') => new DomainError(403, message);
export const notFound = (message = 'Not found') => new DomainError(404, message);
export const conflict = (message: string) => new DomainError(409, message);
export const gone = (message: string) => new DomainError(410, message);
export const tooMany = (message: string) => new DomainError(429, message);

/**
 * A refusal that still has something to record (a counted wrong code attempt): the command handler appends
 * `events` and then answers with `error`.
 */
export class RefusedWithEvents<
  E extends { type: string; data: unknown } = { type: string; data: unknown },
> extends Error {
  constructor(
    readonly events: E[],
    readonly error: HttpError,
  ) {
    super(error.message);
  }
}

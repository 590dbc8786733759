import { ADMIN_MESSAGES } from '@pawhaven/contracts';

/** The admin client's pure parts: the one-at-a-time queue and the error text. */

/** Runs tasks one after another, each starting at least `gapMs` after the previous one started. */
export function createQueue(gapMs: number, now: () => number = Date.now) {
  let tail: Promise<unknown> = Promise.resolve();
  let lastStart = -Infinity;
  return function enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = tail.then(async () => {
      const wait = lastStart + gapMs - now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      lastStart = now();
      return task();
    });
    tail = run.catch(() => undefined);
    return run;
  };
}

/** The text of a failed answer: its `message` (or `error`), else the spec's generic text. */
export function errorMessageOf(status: number, json: unknown): string {
  if (json && typeof json === 'object') {
    const { message, error } = json as { message?: unknown; error?: unknown };
    if (typeof message === 'string' && message) return message;
    if (typeof error === 'string' && error) return error;
  }
  return ADMIN_MESSAGES.httpError(status);
}

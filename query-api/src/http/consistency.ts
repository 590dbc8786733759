import type { RequestHandler } from 'express';
import { CONSISTENT_AFTER_HEADER } from '@pawhaven/contracts';
import type { ConsistencyWaiter } from '@pawhaven/platform';

/**
 * Read-your-writes: a read carrying X-Consistent-After waits (bounded) until the projections have passed that
 * position. On time-out it answers anyway, marked `X-Consistency: stale`, rather than failing the page.
 */
const MAX_POSITION = 2n ** 63n - 1n;

export function consistentReads(waiter: ConsistencyWaiter, timeoutMs: number): RequestHandler {
  const header = CONSISTENT_AFTER_HEADER.toLowerCase();
  return async (req, res, next) => {
    const raw = req.headers[header];
    if (typeof raw !== 'string' || raw === '') return next();
    // A position is a PostgreSQL bigint: anything else (letters, 9999999999999999999) is the client's mistake.
    if (!/^\d{1,19}$/.test(raw) || BigInt(raw) > MAX_POSITION) {
      res
        .status(400)
        .json({ message: `${CONSISTENT_AFTER_HEADER} must be a position number`, error: 'Bad header' });
      return;
    }
    const caughtUp = await waiter.waitFor(BigInt(raw), timeoutMs);
    res.setHeader('X-Consistency', caughtUp ? 'consistent' : 'stale');
    next();
  };
}

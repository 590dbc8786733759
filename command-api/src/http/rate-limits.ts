import { rateLimit } from 'express-rate-limit';
import type { Config } from '@pawhaven/platform';

const TOO_MANY = 'Too many attempts. Please wait a few minutes and try again.';

/** One limiter per sensitive flow, per client address; the numbers are settings (README, "Settings"). */
export function authRateLimits(config: Config) {
  const make = (limit: number) =>
    rateLimit({
      windowMs: config.RATE_LIMIT_WINDOW_SECONDS * 1000,
      limit,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      handler: (_req, res) => {
        res.status(429).json({ message: TOO_MANY, error: TOO_MANY });
      },
    });
  return {
    signin: make(config.RATE_LIMIT_SIGNIN),
    register: make(config.RATE_LIMIT_REGISTER),
    otp: make(config.RATE_LIMIT_OTP),
    reset: make(config.RATE_LIMIT_RESET),
  };
}

import { config } from 'zod/v4/core';

// Our Content-Security-Policy has no 'unsafe-eval': zod must not probe or use `new Function` for its fast path.
// Imported first by main.tsx, before any schema is used. `config` comes from zod's core (the same global setting
// as `z.config`) so that the initial bundle does not hold zod's schema builders.
config({ jitless: true });

import { z } from 'zod';

// Our Content-Security-Policy has no 'unsafe-eval': zod must not probe or use `new Function` for its fast path.
// Imported first by main.tsx, before any schema is used.
z.config({ jitless: true });

// Starts a rebuild's fold thread (fold-thread.ts). From the TypeScript sources (npm start, the tests) tsx compiles the
// thread's modules too: loader hooks registered by the main thread do not reach worker threads on Node 20.
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);

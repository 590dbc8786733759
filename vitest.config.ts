import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['./test/global-setup.ts'],
    env: { NODE_ENV: 'test' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['*/src/**/*.unit.test.ts'], sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['*/src/**/*.int.test.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['e2e/**/*.e2e.test.ts'],
          // Two files at a time, each with its own app and browser: most of a browser test is waiting (debounces,
          // toasts that last 5 s, tips after 5–20 s), so two overlap well on two cores.
          maxWorkers: 2,
          testTimeout: 120_000,
          // A page waits on the app and its projections; on a loaded 2-core machine 1 s (the default) is too short.
          expect: { poll: { timeout: 10_000 } },
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});

import { describe, expect, it } from 'vitest';
import { createQueue, errorMessageOf } from './requests';

describe('admin HTTP client', () => {
  it('runs requests one at a time, each starting at least the gap after the previous one', async () => {
    const enqueue = createQueue(30);
    const log: { start: number; end: number }[] = [];
    let running = 0;
    let overlapped = false;
    const task = async () => {
      running++;
      if (running > 1) overlapped = true;
      const start = performance.now();
      await new Promise((r) => setTimeout(r, 5));
      running--;
      log.push({ start, end: performance.now() });
    };
    await Promise.all([enqueue(task), enqueue(task), enqueue(task)]);
    expect(overlapped).toBe(false);
    for (let i = 1; i < log.length; i++) expect(log[i]!.start - log[i - 1]!.start).toBeGreaterThanOrEqual(29);
  });

  it('keeps going after a failed request', async () => {
    const enqueue = createQueue(0);
    await expect(enqueue(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(enqueue(() => Promise.resolve(7))).resolves.toBe(7);
  });

  it("says what the server said, else the spec's 'HTTP error! status: {code}'", () => {
    expect(errorMessageOf(404, { message: 'Post not found' })).toBe('Post not found');
    expect(errorMessageOf(500, { error: 'Internal' })).toBe('Internal');
    expect(errorMessageOf(502, '<html>')).toBe('HTTP error! status: 502');
    expect(errorMessageOf(503, null)).toBe('HTTP error! status: 503');
  });
});

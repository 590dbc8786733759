import { round } from './measure';

/** The `q` quantile (0 to 1) of ascending `sorted` samples, to 2 decimals; 0 without samples. */
export const percentile = (sorted: number[], q: number) =>
  round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0, 2);

/** The middle value (the upper one of an even count). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Sends `total` messages at `rate` per second (open loop: a slow answer never delays the next send) and answers
 * the latency of each `send(i)` that resolved, measured from its start; one that rejected is not counted (lost).
 */
export async function steady(
  rate: number,
  total: number,
  send: (i: number) => Promise<void>,
): Promise<number[]> {
  const latencies: number[] = [];
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    inFlight.push(
      send(i).then(
        () => void latencies.push(performance.now() - t0),
        () => {},
      ),
    );
  }
  await Promise.all(inFlight);
  return latencies;
}

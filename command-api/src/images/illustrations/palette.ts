import { createHash } from 'node:crypto';

/**
 * The drawings' shared toolbox: a pseudo-random source seeded by a pet's key (so a pet always gets the same
 * picture and two pets almost never the same one) and colour helpers for flat shading.
 */

export type Rng = {
  /** A number in [0, 1). */
  next(): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
  between(min: number, max: number): number;
};

/** A deterministic source of choices for `key` (SHA-256 of the key seeds a mulberry32 generator). */
export function rngOf(key: string): Rng {
  let state = createHash('sha256').update(key).digest().readUInt32LE(0);
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
    between: (min, max) => min + next() * (max - min),
  };
}

const channels = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const toHex = (rgb: number[]) =>
  `#${rgb
    .map((c) =>
      Math.round(Math.max(0, Math.min(255, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** `hex` darkened (amount < 0, towards black) or lightened (amount > 0, towards white); amount in [-1, 1]. */
export function shade(hex: string, amount: number): string {
  const target = amount < 0 ? 0 : 255;
  return toHex(channels(hex).map((c) => c + (target - c) * Math.abs(amount)));
}

/** Outline and eye colours every animal shares, so the set reads as one family of drawings. */
export const INK = '#3b2a26';
export const NOSE = '#3b2a26';
export const PINK = '#f4a6a0';

/** Accessory colours (collars, bows, bandanas). */
export const ACCESSORY_COLOURS = ['#e63946', '#2a9d8f', '#f4a261', '#457b9d', '#9b5de5', '#ef476f'] as const;

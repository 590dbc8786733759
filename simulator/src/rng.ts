const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const h8 = (x: number) => HEX[x >>> 24]! + HEX[(x >>> 16) & 255]! + HEX[(x >>> 8) & 255]! + HEX[x & 255]!;
export const PAD = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
export const PAD3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** mulberry32: small, fast and good enough for a simulation; the same seed gives the same log. */
export class Rng {
  private a: number;
  constructor(seed: number) {
    this.a = seed >>> 0;
  }
  u32(): number {
    let t = (this.a = (this.a + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  next(): number {
    return this.u32() / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  range(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }
  exp(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }
  /** A version-4 UUID made of PRNG bits. */
  uuid(): string {
    // Written as character codes: a flat string (concatenating pieces would keep a rope of them alive).
    const out = this.codes;
    let at = 0;
    for (let w = 0; w < 4; w++) {
      let x = this.u32();
      if (w === 1) x = (x & 0xffff0fff) | 0x4000; // version 4
      if (w === 2) x = (x & 0x3fffffff) | 0x80000000; // variant 10
      for (let shift = 28; shift >= 0; shift -= 4) {
        if (at === 8 || at === 13 || at === 18 || at === 23) out[at++] = 45; // '-'
        out[at++] = HEX_CODES[(x >>> shift) & 15]!;
      }
    }
    return String.fromCharCode.apply(null, out as unknown as number[]);
  }
  private readonly codes = new Array<number>(36).fill(0);
  /** `words` × 8 hex digits. */
  hex(words: number): string {
    let s = '';
    for (let i = 0; i < words; i++) s += h8(this.u32());
    return s;
  }
  b64(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += B64[this.u32() & 63];
    return s;
  }
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(48 + this.int(10));
    return s;
  }
}

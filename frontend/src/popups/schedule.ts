import type { Tip } from './tips';

/**
 * The tip popups' timing, kept free of React and of the real clock so it can be tested: each session picks two tips;
 * the first appears after a random 5–20 s, the second a random 5–20 s after the first appeared; they take the
 * bottom-left and top-right corners in turn and stay until dismissed. A dismissal is remembered in sessionStorage, so a
 * dismissed tip does not come back in this session (a reload shows the tips that were not dismissed yet, after a new
 * delay).
 */

export const TIP_MIN_DELAY_MS = 5_000;
export const TIP_MAX_DELAY_MS = 20_000;
export const TIPS_PER_SESSION = 2;
export const TIP_STORAGE_KEY = 'pawhaven.tips';

export type TipCorner = 'bottom-left' | 'top-right';
export type VisibleTip = { tip: Tip; corner: TipCorner };

/** A random delay in [5 s, 20 s] (inclusive) from a random number in [0, 1). */
export function tipDelay(random: () => number): number {
  const r = Math.min(Math.max(random(), 0), 0.999_999_999);
  return TIP_MIN_DELAY_MS + Math.floor(r * (TIP_MAX_DELAY_MS - TIP_MIN_DELAY_MS + 1));
}

/** The tips alternate corners in the order they appear: bottom-left, top-right, bottom-left… */
export const cornerOf = (slot: number): TipCorner => (slot % 2 === 0 ? 'bottom-left' : 'top-right');

export type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;
type Memory = { picked: string[]; dismissed: string[] };

const isIdList = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');

/** This session's memory, or null when there is none (or it cannot be read). */
export function readTipMemory(storage: StorageLike | null): Memory | null {
  try {
    const raw = storage?.getItem(TIP_STORAGE_KEY);
    if (!raw) return null;
    const data = JSON.parse(raw) as Partial<Memory>;
    if (!isIdList(data.picked) || !isIdList(data.dismissed)) return null;
    return { picked: data.picked, dismissed: data.dismissed };
  } catch {
    return null;
  }
}

function writeTipMemory(storage: StorageLike | null, memory: Memory) {
  try {
    storage?.setItem(TIP_STORAGE_KEY, JSON.stringify(memory));
  } catch {
    // Storage full or blocked: the tips are then remembered only until the page is left.
  }
}

/** Two different tips of the pool, chosen at random. */
export function pickTips(pool: readonly Tip[], random: () => number, count = TIPS_PER_SESSION): string[] {
  const ids = pool.map((t) => t.id);
  const picked: string[] = [];
  while (picked.length < count && ids.length > 0) {
    const i = Math.min(Math.floor(Math.max(random(), 0) * ids.length), ids.length - 1);
    picked.push(ids.splice(i, 1)[0]!);
  }
  return picked;
}

/** The session's tips: the ones picked earlier in this session, or a new pick that is remembered. */
export function sessionMemory(
  storage: StorageLike | null,
  pool: readonly Tip[],
  random: () => number,
): Memory {
  const known = new Set(pool.map((t) => t.id));
  const stored = readTipMemory(storage);
  if (stored && stored.picked.length > 0 && stored.picked.every((id) => known.has(id))) return stored;
  const memory = { picked: pickTips(pool, random), dismissed: [] };
  writeTipMemory(storage, memory);
  return memory;
}

export type TimerClock = {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

export type TipScheduler = {
  /** Starts the timers (again after stop()). */
  start(): void;
  stop(): void;
  dismiss(id: string): void;
  visible(): VisibleTip[];
};

/**
 * Runs the popups of one page load. `onChange` hears the tips on screen whenever they change.
 */
export function createTipScheduler(opts: {
  tips: readonly Tip[];
  storage: StorageLike | null;
  random: () => number;
  clock: TimerClock;
  onChange: (visible: VisibleTip[]) => void;
}): TipScheduler {
  const { tips, storage, random, clock, onChange } = opts;
  let memory: Memory | null = null;
  let shown: VisibleTip[] = [];
  let timer: unknown = null;
  /** The picked tips not dismissed, in order, with their corner (fixed by their place in the pick). */
  let queue: VisibleTip[] = [];

  const scheduleNext = () => {
    const next = queue.shift();
    if (!next) return;
    timer = clock.setTimeout(() => {
      timer = null;
      shown = [...shown, next];
      onChange(shown);
      scheduleNext();
    }, tipDelay(random));
  };

  return {
    start() {
      if (timer !== null || memory !== null) return;
      memory = sessionMemory(storage, tips, random);
      const dismissed = new Set(memory.dismissed);
      queue = memory.picked
        .map((id, slot) => ({ tip: tips.find((t) => t.id === id)!, corner: cornerOf(slot) }))
        .filter((v) => v.tip && !dismissed.has(v.tip.id));
      shown = [];
      scheduleNext();
    },
    stop() {
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      memory = null;
      queue = [];
      shown = [];
    },
    dismiss(id) {
      const current = memory ?? readTipMemory(storage) ?? { picked: [], dismissed: [] };
      if (!current.dismissed.includes(id)) {
        memory = { ...current, dismissed: [...current.dismissed, id] };
        writeTipMemory(storage, memory);
      }
      queue = queue.filter((v) => v.tip.id !== id);
      if (shown.some((v) => v.tip.id === id)) {
        shown = shown.filter((v) => v.tip.id !== id);
        onChange(shown);
      }
    },
    visible: () => shown,
  };
}

import { describe, expect, it } from 'vitest';
import {
  TIP_MAX_DELAY_MS,
  TIP_MIN_DELAY_MS,
  TIP_STORAGE_KEY,
  cornerOf,
  createTipScheduler,
  pickTips,
  readTipMemory,
  sessionMemory,
  tipDelay,
  type StorageLike,
  type TimerClock,
  type VisibleTip,
} from './schedule';
import { TIPS, type Tip } from './tips';

/** A clock whose time moves only when the test says so. */
function fakeClock() {
  let now = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: TimerClock = {
    setTimeout(fn, ms) {
      timers.set(++seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = until;
  };
  return { clock, advance, pending: () => timers.size };
}

function memoryStorage(): StorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

/** Random numbers from a list, in turn. */
const sequence = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

const POOL: Tip[] = [
  { id: 'a', title: 'A', text: 'a' },
  { id: 'b', title: 'B', text: 'b' },
  { id: 'c', title: 'C', text: 'c' },
];

function setup(random: () => number, storage: StorageLike | null = memoryStorage()) {
  const { clock, advance, pending } = fakeClock();
  const changes: VisibleTip[][] = [];
  const scheduler = createTipScheduler({
    tips: POOL,
    storage,
    random,
    clock,
    onChange: (v) => changes.push(v),
  });
  const onScreen = () => scheduler.visible().map((v) => `${v.tip.id}@${v.corner}`);
  return { scheduler, advance, pending, changes, onScreen, storage };
}

describe('tip delay and corners', () => {
  it('waits a random 5 to 20 seconds', () => {
    expect(tipDelay(() => 0)).toBe(TIP_MIN_DELAY_MS);
    expect(tipDelay(() => 0.999_999_999_9)).toBe(TIP_MAX_DELAY_MS);
    expect(tipDelay(() => 1)).toBe(TIP_MAX_DELAY_MS);
    expect(tipDelay(() => -3)).toBe(TIP_MIN_DELAY_MS);
    expect(tipDelay(() => 0.5)).toBe(12_500);
    for (let i = 0; i < 200; i++) {
      const d = tipDelay(Math.random);
      expect(d).toBeGreaterThanOrEqual(5_000);
      expect(d).toBeLessThanOrEqual(20_000);
    }
  });

  it('alternates bottom-left and top-right', () => {
    expect([0, 1, 2, 3].map(cornerOf)).toEqual(['bottom-left', 'top-right', 'bottom-left', 'top-right']);
  });

  it('picks two different tips', () => {
    expect(pickTips(POOL, () => 0)).toEqual(['a', 'b']);
    expect(pickTips(POOL, () => 0.99)).toEqual(['c', 'b']);
    for (let i = 0; i < 50; i++) {
      const [x, y] = pickTips(TIPS, Math.random);
      expect(x).not.toBe(y);
    }
  });
});

describe('tip scheduler', () => {
  it('shows the first tip after its delay at bottom-left and the second one later at top-right', () => {
    // Pick 'a' then 'b' (random 0, 0), then delays of 5 s (0) and 20 s (1).
    const t = setup(sequence(0, 0, 0, 1));
    t.scheduler.start();
    t.advance(4_999);
    expect(t.onScreen()).toEqual([]);
    t.advance(1);
    expect(t.onScreen()).toEqual(['a@bottom-left']);
    t.advance(19_999);
    expect(t.onScreen()).toEqual(['a@bottom-left']);
    t.advance(1);
    expect(t.onScreen()).toEqual(['a@bottom-left', 'b@top-right']);
    // Nothing more is scheduled: each tip is shown once.
    expect(t.pending()).toBe(0);
    t.advance(120_000);
    expect(t.changes).toHaveLength(2);
  });

  it('keeps a tip until it is dismissed, and remembers the dismissal for the session', () => {
    const storage = memoryStorage();
    const t = setup(sequence(0, 0, 0.5), storage);
    t.scheduler.start();
    t.advance(12_500);
    expect(t.onScreen()).toEqual(['a@bottom-left']);
    t.advance(60_000);
    expect(t.onScreen()).toEqual(['a@bottom-left', 'b@top-right']);
    t.scheduler.dismiss('a');
    expect(t.onScreen()).toEqual(['b@top-right']);
    expect(readTipMemory(storage)).toEqual({ picked: ['a', 'b'], dismissed: ['a'] });

    // A reload in the same session: only 'b' comes back, in its own corner, after a new delay.
    t.scheduler.stop();
    const again = setup(sequence(0.99), storage);
    again.scheduler.start();
    again.advance(4_000);
    expect(again.onScreen()).toEqual([]);
    again.advance(16_000);
    expect(again.onScreen()).toEqual(['b@top-right']);
    again.scheduler.dismiss('b');
    again.scheduler.stop();

    // Both dismissed: nothing is scheduled any more in this session.
    const third = setup(Math.random, storage);
    third.scheduler.start();
    expect(third.pending()).toBe(0);
    third.advance(60_000);
    expect(third.onScreen()).toEqual([]);
  });

  it('keeps the session pick across reloads', () => {
    const storage = memoryStorage();
    setup(sequence(0.99, 0.99, 0), storage).scheduler.start();
    expect(readTipMemory(storage)?.picked).toEqual(['c', 'b']);
    expect(sessionMemory(storage, POOL, () => 0).picked).toEqual(['c', 'b']);
  });

  it('dismissing a tip before it appears keeps it from appearing', () => {
    const t = setup(sequence(0, 0, 0));
    t.scheduler.start();
    t.scheduler.dismiss('b');
    t.advance(60_000);
    expect(t.onScreen()).toEqual(['a@bottom-left']);
  });

  it('stops its timers', () => {
    const t = setup(sequence(0, 0, 0));
    t.scheduler.start();
    t.scheduler.stop();
    expect(t.pending()).toBe(0);
    t.advance(60_000);
    expect(t.onScreen()).toEqual([]);
    // Started again (React's development double mount): one timer, the same pick.
    t.scheduler.start();
    t.scheduler.start();
    expect(t.pending()).toBe(1);
  });

  it('picks again when the stored memory is unreadable or names unknown tips', () => {
    const storage = memoryStorage();
    storage.data.set(TIP_STORAGE_KEY, '{not json');
    expect(readTipMemory(storage)).toBeNull();
    expect(sessionMemory(storage, POOL, () => 0).picked).toEqual(['a', 'b']);
    storage.data.set(TIP_STORAGE_KEY, JSON.stringify({ picked: ['gone', 'a'], dismissed: [] }));
    expect(sessionMemory(storage, POOL, () => 0.99).picked).toEqual(['c', 'b']);
  });

  it('works without storage (blocked or throwing)', () => {
    const throwing: StorageLike = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    for (const storage of [null, throwing]) {
      const t = setup(sequence(0, 0, 0), storage);
      t.scheduler.start();
      t.advance(5_000);
      expect(t.onScreen()).toEqual(['a@bottom-left']);
      t.scheduler.dismiss('a');
      expect(t.onScreen()).toEqual([]);
    }
  });
});

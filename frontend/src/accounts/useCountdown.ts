import { useCallback, useEffect, useState } from 'react';

/** A whole-second countdown that can be restarted; `remaining` reaches 0 and stays there. */
export function useCountdown(seconds: number) {
  const [deadline, setDeadline] = useState(() => Date.now() + seconds * 1000);
  const [now, setNow] = useState(() => Date.now());
  const remaining = Math.max(0, Math.ceil((deadline - now) / 1000));

  useEffect(() => {
    if (remaining <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [deadline, remaining]);

  const restart = useCallback(
    (s: number = seconds) => {
      const t = Date.now();
      setNow(t);
      setDeadline(t + s * 1000);
    },
    [seconds],
  );
  return { remaining, expired: remaining === 0, restart };
}

/** 125 → '02:05' */
export const mmss = (total: number) =>
  `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;

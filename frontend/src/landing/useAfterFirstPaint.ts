import { useEffect, useState } from 'react';

/**
 * False until the browser has painted the component once: below-the-fold parts wait for it, so their code is
 * fetched and run after the hero is on screen rather than competing with it.
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: number | undefined;
    const frame = window.requestAnimationFrame(() => {
      timer = window.setTimeout(() => setPainted(true), 0);
    });
    return () => {
      window.cancelAnimationFrame(frame);
      if (timer !== undefined) window.clearTimeout(timer);
    };
  }, []);
  return painted;
}

import { useLayoutEffect } from 'react';

/** Drops the prerendered screen and shows #root, in the same frame (idempotent). */
export function releasePrerender() {
  if (typeof document === 'undefined') return;
  document.documentElement.removeAttribute('data-prerender');
  document.getElementById('prerender')?.remove();
}

/**
 * Called by a page the prerender copies, once its first screen is rendered: a layout effect, so the copy goes
 * and the page shows before the next paint (no flash, nothing moves).
 */
export function usePrerenderHandoff() {
  useLayoutEffect(releasePrerender, []);
}

import { lazy, Suspense } from 'react';

// The popups load as their own chunk after the shell: nothing of them is in the initial bundle.
const TipPopupsPanel = lazy(() => import('./TipPopupsPanel'));

/** The session's tip popups (./TipPopupsPanel), mounted once in the root layout. */
export function TipPopups() {
  return (
    <Suspense fallback={null}>
      <TipPopupsPanel />
    </Suspense>
  );
}

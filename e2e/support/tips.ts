import type { BrowserContext } from 'playwright-core';
import { TIP_STORAGE_KEY } from '@pawhaven/frontend/popups/schedule';
import { TIPS } from '@pawhaven/frontend/popups/tips';

/** Marks this browser session's tips as already shown and dismissed, so no tip popup covers a page. */
export async function dismissTips(context: BrowserContext) {
  const ids = TIPS.slice(0, 2).map((t) => t.id);
  await context.addInitScript(
    ({ key, value }) => {
      // Also runs in the blank page a new tab starts on, where storage is off limits.
      try {
        (globalThis as unknown as { sessionStorage: Storage }).sessionStorage.setItem(key, value);
      } catch {
        /* not our document */
      }
    },
    { key: TIP_STORAGE_KEY, value: JSON.stringify({ picked: ids, dismissed: ids }) },
  );
}

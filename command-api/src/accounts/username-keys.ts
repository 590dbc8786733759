import unhomoglyph from 'unhomoglyph';

/**
 * The keys a username is compared by: two usernames collide when they share a key. Each key is the typed name
 * after NFKC (full-width and styled letters become plain ones), white space collapsed, case folded, and the
 * confusables skeleton of Unicode TS #39 (`unhomoglyph`, Unicode's confusables.txt: Cyrillic 'а' → 'a', '0' → 'O',
 * 'm' → 'rn' …) — so 'аdmin' (Cyrillic а), 'ADMIN', 'ａｄｍｉｎ' and 'adrnin' all collide with 'admin'.
 *
 * Why two keys: case folding makes 'I' equal to 'i', while the skeleton makes 'I' equal to 'l'. One key cannot
 * hold both without making 'Ali' and 'All' the same name. So one key folds case before the skeleton ('Ali' ≡
 * 'ALI'), the other after it ('AIex' with a capital I ≡ 'Alex'); most names have one key, a name with capitals
 * that look like other letters has two, and a new name is refused when any of its keys is claimed.
 *
 * The keys are never shown: the typed name is what profiles display.
 */
export function usernameKeys(username: string): string[] {
  const name = username.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  const folded = fold(skeleton(fold(name))).normalize('NFC');
  const skeletonFirst = fold(skeleton(name)).normalize('NFC');
  return folded === skeletonFirst ? [folded] : [folded, skeletonFirst];
}

/** Full case folding as far as JavaScript has it: upper then lower case also folds 'ß' → 'ss', 'ς' → 'σ'. */
const fold = (s: string) => s.toUpperCase().toLowerCase();

/** UTS #39 skeleton: NFD, each confusable replaced by its prototype, NFD again. */
const skeleton = (s: string) => unhomoglyph(s.normalize('NFD')).normalize('NFD');

/**
 * The key of the first version's claim streams (`username-{key}`): trimmed and lower case. Only the one-time
 * migration reads those streams.
 */
export const legacyUsernameKey = (username: string) => username.trim().toLowerCase();

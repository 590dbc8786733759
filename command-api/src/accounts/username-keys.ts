import { isUuid } from '@pawhaven/contracts';
import unhomoglyph from 'unhomoglyph';
import { isEnvelope, Pseudonyms, type LegacyRewrite } from '@pawhaven/platform';

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
 * The keys are never shown: the typed name is what profiles display. Nor are they stored: claims and events hold
 * their keyed hashes (`usernameClaimKeys`).
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
 * The keys a username is claimed under, as the log keeps them: each comparison key's pseudonym (a keyed hash under
 * the server's secret), so neither the claim streams nor the events' `usernameKeys` read as the name. Look-alikes
 * still share a key, so they still collide.
 */
export const usernameClaimKeys = (pseudonyms: Pseudonyms, username: string): string[] =>
  usernameKeys(username).map((key) => pseudonyms.of(key));

const claimKeysOf = (pseudonyms: Pseudonyms, keys: unknown) =>
  Array.isArray(keys) && keys.some((k) => typeof k === 'string' && !Pseudonyms.is(k))
    ? keys.map((k) => (typeof k === 'string' && !Pseudonyms.is(k) ? pseudonyms.of(k) : k))
    : keys;

/**
 * The start-time rewrite of the accounts' old events (`encryptLegacyPersonalData`): readable username keys become
 * their pseudonyms, events recorded before usernames had keys get them (the name is still readable there: it is
 * sealed right after this), and the first version's migration record names no username. Idempotent.
 */
export function pseudonymiseUsernameKeys(pseudonyms: Pseudonyms): LegacyRewrite {
  return {
    types: ['UserRegistered', 'RegistrationRenewed', 'UsernameClaimsMigrated'],
    apply({ type, data }) {
      const d = data as Record<string, unknown>;
      if (type === 'UsernameClaimsMigrated') {
        // The first version's record named the clashing usernames; it names their accounts now.
        const names = Array.isArray(d.clashes) ? d.clashes.filter((c) => !isUuid(String(c))) : [];
        return names.length === 0 ? data : { ...d, clashes: claimKeysOf(pseudonyms, d.clashes) };
      }
      let keys = claimKeysOf(pseudonyms, d.usernameKeys);
      if (keys === undefined && typeof d.username === 'string' && !isEnvelope(d.username))
        keys = usernameClaimKeys(pseudonyms, d.username);
      const replaced = d.replaced as { usernameKeys?: unknown } | undefined;
      const replacedKeys = replaced ? claimKeysOf(pseudonyms, replaced.usernameKeys) : undefined;
      if (keys === d.usernameKeys && replacedKeys === replaced?.usernameKeys) return data;
      return {
        ...d,
        ...(keys === undefined ? {} : { usernameKeys: keys }),
        ...(replaced ? { replaced: { ...replaced, usernameKeys: replacedKeys } } : {}),
      };
    },
  };
}

/** The confusables (Unicode TS #39, as `unhomoglyph` has them) of the characters generated usernames use. */
const ASCII_CONFUSABLES: Record<string, string> = { '0': 'O', '1': 'l', I: 'l', m: 'rn' };
const skeleton = (s: string) => s.replace(/[01Im]/g, (c) => ASCII_CONFUSABLES[c]!);

/**
 * command-api accounts/username-keys.ts `usernameKeys`, for the ASCII letters, digits, spaces, dots and underscores
 * generated names are made of (the unit test checks it against the real one).
 */
export function asciiUsernameKeys(username: string): string[] {
  const name = username.replace(/\s+/g, ' ').trim();
  const folded = skeleton(name.toLowerCase()).toLowerCase();
  const skeletonFirst = skeleton(name).toLowerCase();
  return folded === skeletonFirst ? [folded] : [folded, skeletonFirst];
}

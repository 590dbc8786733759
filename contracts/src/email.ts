import { z } from 'zod';

/**
 * An e-mail address as mail providers hand them out: zod's `email()` rule (letters, digits and ' _ + - in dot-separated
 * words, an at-sign, a domain of labels with a top-level name of two letters or more). Anything that would make a
 * `mailto:` link or a mail header mean more than one address is refused: `?`, `&`, `%`, `,`, spaces, quotes,
 * `a@b.co?cc=x%40evil.example&body=hi`. (Quoted or non-ASCII local parts, valid but rare, are refused too.)
 */
export const EMAIL_ADDRESS: RegExp = z.regexes.email;

/** A required e-mail field, trimmed: `required` when empty, `invalid` when not an address. */
export const emailField = (required: string, invalid: string, max = 254) =>
  z.string({ error: required }).trim().min(1, required).max(max).regex(EMAIL_ADDRESS, invalid);

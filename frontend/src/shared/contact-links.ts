/**
 * Links that write or call. Every mailto: and tel: link of the app is built here, so what someone typed can only ever
 * be the one address or number: never a `?cc=`, a `&body=` or a second recipient added to the link.
 */

/** A mailto: link to one address, each side of its at-sign percent-encoded (RFC 6068). */
export function mailtoHref(address: string): string {
  const trimmed = address.trim();
  const at = trimmed.lastIndexOf('@');
  const encoded =
    at < 0
      ? encodeURIComponent(trimmed)
      : `${encodeURIComponent(trimmed.slice(0, at))}@${encodeURIComponent(trimmed.slice(at + 1))}`;
  return `mailto:${encoded}`;
}

/** A tel: link: the digits and a leading plus of a number as written ('+92 42 111-222' → tel:+9242111222). */
export function telHref(phone: string): string {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/\D/g, '');
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${digits}`;
}

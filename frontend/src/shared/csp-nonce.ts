/**
 * The page's Content-Security-Policy nonce: the gateway writes a fresh one into index.html's `csp-nonce` meta for
 * every page. Whatever adds a <style> element (emotion, Google's client) must carry it, or the browser ignores it.
 * Read through the `nonce` property: browsers hide the attribute's value once the page is parsed.
 */
export const cspNonce = (): string | undefined =>
  document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;

/** Text made safe to place in HTML (element content or a quoted attribute). */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The dev mailbox as a page: every kept e-mail, newest first, so codes can be read without a mail server. */
export function mailboxPage(
  mails: { to: string; subject: string; text: string; sentAt: string }[],
  /** The response's Content-Security-Policy nonce (set by the gateway), for the page's own <style>. */
  nonce?: string,
): string {
  const items = mails
    .map(
      (m) =>
        `<article><header><strong>${escapeHtml(m.subject)}</strong><span>to ${escapeHtml(m.to)} · ${escapeHtml(
          new Date(m.sentAt).toLocaleString('en-US'),
        )}</span></header><pre>${escapeHtml(m.text)}</pre></article>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>PawHaven dev mailbox</title><style${nonce ? ` nonce="${escapeHtml(nonce)}"` : ''}>
body{font-family:system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#2d2a26;background:#fdf8f3}
h1{font-size:1.5rem}article{background:#fff;border:1px solid #eadfd3;border-radius:10px;padding:1rem;margin:1rem 0}
header{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.5rem}span{color:#7a6f66;font-size:.9rem}
pre{white-space:pre-wrap;font-family:inherit}</style></head><body>
<h1>Dev mailbox</h1><p>E-mails PawHaven would have sent. Only in the embedded development setup; JSON at <code>/dev/mailbox?to=address</code>.</p>
${items || '<p>No e-mails yet.</p>'}</body></html>`;
}

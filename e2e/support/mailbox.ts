/** The dev mailbox of the embedded runtime: GET /dev/mailbox?to=… answers newest-first JSON. */
export type Mail = { to: string; subject: string; text: string; sentAt: string };

export async function readMailbox(baseUrl: string, to: string): Promise<Mail[]> {
  const res = await fetch(`${baseUrl}/dev/mailbox?to=${encodeURIComponent(to)}`, {
    headers: { accept: 'application/json' },
  });
  if (!res.ok) throw new Error(`GET /dev/mailbox answered ${res.status}`);
  return (await res.json()) as Mail[];
}

/**
 * The six-digit code of the newest mail to `to` whose subject matches, sent after `since` (so a test never picks
 * up an older code). Polls briefly: the mail is written by the command that answered.
 */
export async function readCode(
  baseUrl: string,
  to: string,
  opts: { subject?: RegExp; since?: Date; timeoutMs?: number } = {},
): Promise<string> {
  const deadline = Date.now() + (opts.timeoutMs ?? 5000);
  for (;;) {
    const mails = await readMailbox(baseUrl, to);
    const mail = mails.find(
      (m) =>
        (!opts.subject || opts.subject.test(m.subject)) && (!opts.since || new Date(m.sentAt) >= opts.since),
    );
    const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no code mailed to ${to} (${mails.length} mails seen)`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

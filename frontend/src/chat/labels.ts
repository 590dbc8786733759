/** The chat's time labels: a message's time, the list's time, the day separators (no React, no I/O). */

/** A time in milliseconds; 0 for none or an unreadable one. */
export const time = (iso: string | null | undefined) => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? 0 : t;
};

const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** A message's time: '3:04 PM'. */
export function messageTime(iso: string | null | undefined): string {
  const t = time(iso);
  if (!t) return '';
  return new Date(t).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
}

/** The list's time: the clock time today, 'Yesterday', else 'Jan 5' (with the year when not this year). */
export function listTime(iso: string | null | undefined, now = new Date()): string {
  const t = time(iso);
  if (!t) return '';
  const d = new Date(t);
  if (sameDay(d, now)) return messageTime(iso);
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(d, yesterday)) return 'Yesterday';
  return d.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    ...(d.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
}

/** The separator above the first message of a day: 'Today', 'Yesterday', else 'Monday, January 5, 2026'. */
export function dayLabel(iso: string, now = new Date()): string {
  const t = time(iso);
  if (!t) return '';
  const d = new Date(t);
  if (sameDay(d, now)) return 'Today';
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(d, yesterday)) return 'Yesterday';
  return d.toLocaleDateString('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
}

export const dayKey = (iso: string) => {
  const t = time(iso);
  if (!t) return '';
  const d = new Date(t);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
};

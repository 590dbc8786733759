import { ADMIN_STATUS_COLOURS } from '@pawhaven/contracts';

/** Pure display helpers of the dashboard. */

/** A short date and time in the admin's locale; '' for no value. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The request list's message column: cut at `max` characters with an ellipsis. */
export function truncate(text: string | null | undefined, max = 50): string {
  if (!text) return '';
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max).join('').trimEnd()}...`;
}

/** A request status's colour: pending yellow, accepted green, rejected red, anything else grey (display only). */
export function requestStatusColour(status: string): string {
  if (status === 'pending' || status === 'accepted' || status === 'rejected')
    return ADMIN_STATUS_COLOURS[status];
  return ADMIN_STATUS_COLOURS.other;
}

/** Seconds left of a rebuild as '1 h 2 min', '3 min 4 s' or '5 s'; '…' until it can be estimated. */
export function formatEta(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '…';
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}

/** Whole numbers with thousands separators. */
export const formatCount = (n: number | null | undefined) =>
  n === null || n === undefined ? '...' : n.toLocaleString('en-US');

/** An event's data or metadata, readable. */
export function prettyJson(value: unknown): string {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A week on a chart's axis by its Monday (YYYY-MM-DD, UTC): '3 Nov' (three letters whatever the browser's ICU). */
export function weekLabel(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
}

/**
 * The weeks an axis labels when it has room for `maxTicks`: evenly spaced, counted back from the latest week (always
 * labelled), so the labels never crowd; every week when they all fit.
 */
export function weekTicks(weeks: readonly string[], maxTicks: number): string[] {
  const step = Math.max(1, Math.ceil(weeks.length / Math.max(1, maxTicks)));
  return weeks.filter((_, i) => (weeks.length - 1 - i) % step === 0);
}

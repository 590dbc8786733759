import type { BenchRow, BenchSection, BenchValue } from './types';

const defaultFormat = (v: BenchValue): string =>
  v === null ? '–' : typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 2 }) : v;

/** A plain-text table: first column left-aligned, the others right-aligned. */
export function renderTable(section: BenchSection, rows: BenchRow[]): string {
  const header = section.columns.map((c) => c.header);
  const body = rows.map((r) => section.columns.map((c) => (c.format ?? defaultFormat)(r[c.key] ?? null)));
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    '| ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ') + ' |';
  const rule =
    '|' + widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|';
  return [line(header), rule, ...body.map(line)].join('\n');
}

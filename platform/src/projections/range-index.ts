/**
 * Ranges of a row store's tables (`TableSpec.ranges`): the rows whose column lies between two numbers (log
 * positions, say), and those whose column is NULL. Numbers only, so JavaScript orders them as PostgreSQL does.
 */

/** A range a read model asks for: bounds exclusive, an undefined one unbounded; or the rows whose column is NULL. */
export type Span = { above: number | undefined; below: number | undefined } | 'null';

/** Whether `value` (a column's) lies in `span`. */
export function inSpan(span: Span, value: unknown): boolean {
  if (span === 'null') return value == null;
  if (value == null) return false;
  const v = Number(value);
  return (span.above === undefined || v > span.above) && (span.below === undefined || v < span.below);
}

/** Whether every row of `inner` is one of `outer`'s. */
export function covers(outer: Span, inner: Span): boolean {
  if (outer === 'null' || inner === 'null') return outer === inner;
  return (
    (outer.above === undefined || (inner.above !== undefined && inner.above >= outer.above)) &&
    (outer.below === undefined || (inner.below !== undefined && inner.below <= outer.below))
  );
}

/** A span's condition on column `??` of table `t`, with its bindings. */
export function spanSql(column: string, span: Span): { sql: string; bindings: (string | number)[] } {
  if (span === 'null') return { sql: 't.?? IS NULL', bindings: [column] };
  const sql = ['t.?? IS NOT NULL'];
  const bindings: (string | number)[] = [column];
  if (span.above !== undefined) {
    sql.push('t.?? > ?');
    bindings.push(column, span.above);
  }
  if (span.below !== undefined) {
    sql.push('t.?? < ?');
    bindings.push(column, span.below);
  }
  return { sql: sql.join(' AND '), bindings };
}

/**
 * One column's rows in memory by value: keys in value order (equal values in the order they came), and the keys of
 * the rows whose value is NULL. Values mostly come in order (positions), so an insertion is mostly an append.
 */
export class RangeIndex<K = string> {
  private readonly values: number[] = [];
  private readonly keys: K[] = [];
  private readonly nulls = new Set<K>();

  /** The first index whose value is above `value` (`strict`) or at least `value`. */
  private bound(value: number, strict: boolean): number {
    let lo = 0;
    let hi = this.values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.values[mid]!;
      if (strict ? v <= value : v < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(key: K, value: unknown): void {
    if (value == null) {
      this.nulls.add(key);
      return;
    }
    const v = Number(value);
    const at =
      this.values.length === 0 || v >= this.values.at(-1)! ? this.values.length : this.bound(v, true);
    this.values.splice(at, 0, v);
    this.keys.splice(at, 0, key);
  }

  remove(key: K, value: unknown): void {
    if (value == null) {
      this.nulls.delete(key);
      return;
    }
    const v = Number(value);
    for (let i = this.bound(v, false); i < this.values.length && this.values[i] === v; i++)
      if (this.keys[i] === key) {
        this.values.splice(i, 1);
        this.keys.splice(i, 1);
        return;
      }
  }

  /** The keys of the rows in `span`. */
  find(span: Span): K[] {
    if (span === 'null') return [...this.nulls];
    const from = span.above === undefined ? 0 : this.bound(span.above, true);
    const to = span.below === undefined ? this.values.length : this.bound(span.below, false);
    return this.keys.slice(from, Math.max(from, to));
  }
}

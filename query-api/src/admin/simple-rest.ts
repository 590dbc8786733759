import type { Request, Response } from 'express';
import type { z } from 'zod';
import { ADMIN_LIMITS, ADMIN_MESSAGES as M, type AdminResource } from '@pawhaven/contracts';
import { badRequest } from '@pawhaven/platform';

/**
 * The `ra-data-simple-rest` conventions (react-admin's stock provider, unchanged):
 * `sort=["field","ASC"]`, `range=[0,24]` (inclusive), `filter={...}`, answered with a JSON array and
 * `Content-Range: {resource} 0-24/{total}`. Without `range` a list is a plain array (capped).
 */
export type ListParams<F> = {
  sort: { field: string; order: 'ASC' | 'DESC' };
  /** null: the plain call, capped at ADMIN_LIMITS.plainListMax. */
  range: { start: number; end: number } | null;
  filter: F;
  offset: number;
  limit: number;
};

const parseJson = (value: unknown, message: string): unknown => {
  if (typeof value !== 'string') throw badRequest(message);
  try {
    return JSON.parse(value);
  } catch {
    throw badRequest(message);
  }
};

export function parseListParams<S extends z.ZodType>(
  req: Request,
  resource: AdminResource,
  sortable: readonly string[],
  defaultSort: readonly [string, 'ASC' | 'DESC'],
  filterSchema: S,
  extraFilter: Partial<z.infer<S>> = {},
): ListParams<z.infer<S>> {
  const q = req.query as Record<string, unknown>;

  let sort = { field: defaultSort[0], order: defaultSort[1] };
  if (q.sort !== undefined) {
    const raw = parseJson(q.sort, M.badSortShape);
    if (!Array.isArray(raw) || typeof raw[0] !== 'string' || (raw.length > 1 && typeof raw[1] !== 'string'))
      throw badRequest(M.badSortShape);
    const order = String(raw[1] ?? 'ASC').toUpperCase();
    if (order !== 'ASC' && order !== 'DESC') throw badRequest(M.badSortShape);
    if (!sortable.includes(raw[0])) throw badRequest(M.badSort(resource, raw[0], sortable));
    sort = { field: raw[0], order };
  }

  let range: ListParams<unknown>['range'] = null;
  if (q.range !== undefined) {
    const raw = parseJson(q.range, M.badRange);
    if (
      !Array.isArray(raw) ||
      raw.length !== 2 ||
      !raw.every((n) => Number.isSafeInteger(n) && (n as number) >= 0) ||
      (raw[1] as number) < (raw[0] as number) ||
      (raw[1] as number) - (raw[0] as number) + 1 > ADMIN_LIMITS.pageSizeMax
    )
      throw badRequest(M.badRange);
    range = { start: raw[0] as number, end: raw[1] as number };
  }

  let filter: unknown = {};
  if (q.filter !== undefined) {
    filter = parseJson(q.filter, M.badFilter);
    if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) throw badRequest(M.badFilter);
  }
  const parsed = filterSchema.safeParse({ ...(filter as object), ...extraFilter });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'filter';
    throw badRequest(`Invalid filter '${field}': ${issue?.message ?? 'invalid'}`);
  }

  return {
    sort,
    range,
    filter: parsed.data,
    offset: range ? range.start : 0,
    limit: range ? range.end - range.start + 1 : ADMIN_LIMITS.plainListMax,
  };
}

/** Content-Range (and X-Total-Count) for react-admin; exposed so a cross-origin dashboard can read them. */
export function sendList(
  res: Response,
  resource: string,
  params: { offset: number },
  rows: unknown[],
  total: number,
) {
  const end = rows.length > 0 ? params.offset + rows.length - 1 : params.offset;
  res.setHeader('Content-Range', `${resource} ${params.offset}-${end}/${total}`);
  res.setHeader('X-Total-Count', String(total));
  res.setHeader('Access-Control-Expose-Headers', 'Content-Range, X-Total-Count');
  res.json(rows);
}

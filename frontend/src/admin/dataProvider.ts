import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider, GetOneParams, Identifier, RaRecord, fetchUtils } from 'react-admin';
import type { AuditEntryDto } from '@pawhaven/contracts';
import { httpClient, type HttpResult } from './httpClient';

const API = '/api/admin';

/**
 * The command route that deletes one record of each resource (DELETE /api/admin/{route}/{id}): a user is deleted
 * at /user/{id}, singular, unlike its list; the others where their lists are. A resource not named here has no
 * deletion.
 */
const DELETE_ROUTES: Readonly<Record<string, string>> = {
  users: 'user',
  adoptions: 'adoptions',
  'adoption-requests': 'adoption-requests',
  posts: 'posts',
  comments: 'comments',
};

/** An ad's audit timeline, read as one record (its id is the ad's): GET /api/admin/adoptions/{id}/history. */
export const ADOPTION_HISTORY = 'adoption-history';
export type AdoptionHistoryRecord = {
  id: string;
  adId: string;
  ad: { name: string; status: string } | null;
  timeline: AuditEntryDto[];
};

type HttpClient = (url: string, options?: fetchUtils.Options) => Promise<HttpResult>;

/**
 * react-admin's stock simple-REST provider over /api/admin (`sort`, `range` and `filter` query parameters, the
 * total in `Content-Range`) for the lists and rows, with the admin API's own routes where they differ: each
 * deletion goes to its command route, and an ad's history is read from its audit route.
 */
export function createDataProvider(http: HttpClient): DataProvider {
  const rest = simpleRestProvider(API, http, 'Content-Range');
  const at = (route: string, id: Identifier) => `${API}/${route}/${encodeURIComponent(String(id))}`;

  /**
   * A deletion is done for the dashboard once its reads show it: react-admin takes the row out of its lists as soon
   * as this resolves. So the record is read back after the deletion; that read carries the deletion's position
   * (X-Consistent-After) and is answered once the read models have passed it, the row gone (404) or marked
   * deleted. The read back only waits: its answer, whatever it is, does not change the deletion's.
   */
  const deleteOne = async (resource: string, id: Identifier) => {
    const route = DELETE_ROUTES[resource];
    if (!route) throw new Error(`No deletion of ${resource} in the dashboard`);
    await http(at(route, id), { method: 'DELETE' });
    await http(at(resource, id)).catch(() => undefined);
  };

  return {
    ...rest,
    getOne: async <R extends RaRecord>(resource: string, params: GetOneParams<R>) => {
      if (resource !== ADOPTION_HISTORY) return rest.getOne<R>(resource, params);
      const { json } = await http(`${at('adoptions', params.id)}/history`, { signal: params.signal });
      return { data: { ...(json as Omit<AdoptionHistoryRecord, 'id'>), id: params.id } as unknown as R };
    },
    delete: async (resource, params) => {
      await deleteOne(resource, params.id);
      return { data: { ...params.previousData, id: params.id } as NonNullable<typeof params.previousData> };
    },
    deleteMany: async (resource, params) => {
      for (const id of params.ids) await deleteOne(resource, id);
      return { data: params.ids };
    },
  };
}

/** The dashboard's data provider; only the HTTP client is ours (token, queue, errors). */
export const dataProvider = createDataProvider(httpClient);

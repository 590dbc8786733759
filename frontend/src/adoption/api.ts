import type {
  AdoptionAdDto,
  AdoptionHistoryEntryDto,
  AdoptionRequestDto,
  AdoptionRequestInput,
} from '@pawhaven/contracts';
import { ADOPTION_LIMITS, type PET_FILTERS } from '@pawhaven/contracts';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { api } from '../shared/api';
import { ADOPTION_QUERY_ROOTS } from './live';

/** Calls of the adoption context. Every command answer carries `position` (read-your-writes). */
const ROOT = '/api/adoptions';
const LIST_TIMEOUT_MS = 10_000;
/** Image uploads take longer than the client's default 5 s on a slow phone connection. */
const UPLOAD_TIMEOUT_MS = 30_000;

export type PetFilter = (typeof PET_FILTERS)[number];
export type ListParams = { filter: PetFilter; city: string; q: string };

type Message = { message: string; position?: string };

const id = (value: string) => encodeURIComponent(value);

export const adoptionApi = {
  /** One page of the public listing; the token is sent when there is one (own ads are left out, myRequest filled). */
  list: ({ filter, city, q }: ListParams, page: number, signal?: AbortSignal) => {
    const params = new URLSearchParams({ filter, page: String(page), limit: String(LIST_PAGE_SIZE) });
    if (city.trim()) params.set('city', city.trim());
    if (q.trim()) params.set('q', q.trim());
    return api.getPage<AdoptionAdDto>(`${ROOT}?${params}`, { timeoutMs: LIST_TIMEOUT_MS, signal });
  },
  mine: (userId: string) =>
    api.get<AdoptionAdDto[]>(`${ROOT}/user/${id(userId)}?includeRequests=true`, {
      timeoutMs: LIST_TIMEOUT_MS,
    }),
  requestsOf: (adId: string) => api.get<AdoptionRequestDto[]>(`${ROOT}/${id(adId)}/requests`),
  history: () =>
    api.get<AdoptionHistoryEntryDto[]>(`${ROOT}/history`, { headers: { 'Cache-Control': 'no-cache' } }),

  create: (form: FormData) => api.post<AdoptionAdDto & Message>(ROOT, form, { timeoutMs: UPLOAD_TIMEOUT_MS }),
  /** JSON with the changed fields, or multipart when a new image goes with them. */
  update: (adId: string, body: Record<string, unknown> | FormData) =>
    api.put<Message>(`${ROOT}/${id(adId)}`, body, {
      timeoutMs: body instanceof FormData ? UPLOAD_TIMEOUT_MS : undefined,
    }),
  remove: (adId: string) => api.delete<Message>(`${ROOT}/${id(adId)}`),

  request: (adId: string, input: AdoptionRequestInput, proofImage: File | null) => {
    let body: AdoptionRequestInput | FormData = input;
    if (proofImage) {
      const form = new FormData();
      for (const [k, v] of Object.entries(input)) form.append(k, v);
      form.append('petHistoryImage', proofImage);
      body = form;
    }
    return api.post<Message & { request: { _id: string; status: 'pending' } }>(
      `${ROOT}/${id(adId)}/request`,
      body,
      { timeoutMs: proofImage ? UPLOAD_TIMEOUT_MS : undefined },
    );
  },
  decide: (requestId: string, status: 'accepted' | 'rejected') =>
    api.put<Message>(`${ROOT}/requests/${id(requestId)}`, { status }),
  withdraw: (requestId: string) => api.post<Message>(`${ROOT}/requests/${id(requestId)}/withdraw`),
};

export const LIST_PAGE_SIZE = ADOPTION_LIMITS.pageSizeDefault;
/** The listing is cached for 5 minutes and cleared after a request, accept or reject. */
export const LIST_STALE_MS = 5 * 60_000;

export const adoptionKeys = {
  all: ADOPTION_QUERY_ROOTS[0],
  lists: () => ['adoptions', 'list'] as const,
  list: (params: ListParams, viewerId: string | null) => ['adoptions', 'list', viewerId, params] as const,
  mine: (userId: string) => ['adoptions', 'mine', userId] as const,
  history: (userId: string) => ['adoptions', 'history', userId] as const,
};

/**
 * After any adoption write: every adoption list, the owner's ads, the history, and the public profile's ad list
 * (read again with `X-Consistent-After`, so the answer includes the write).
 */
export function invalidateAdoptions(queryClient: QueryClient) {
  for (const queryKey of ADOPTION_QUERY_ROOTS) void queryClient.invalidateQueries({ queryKey });
}

type ListData = InfiniteData<{ items: AdoptionAdDto[]; total: number | null }, number>;

/** Shows a change to one ad in every cached listing at once (before the invalidated lists are read again). */
export function patchListedAd(
  queryClient: QueryClient,
  adId: string,
  patch: (ad: AdoptionAdDto) => AdoptionAdDto,
) {
  queryClient.setQueriesData<ListData>({ queryKey: adoptionKeys.lists() }, (old) =>
    old
      ? {
          ...old,
          pages: old.pages.map((page) => ({
            ...page,
            items: page.items.map((ad) => (ad._id === adId ? patch(ad) : ad)),
          })),
        }
      : old,
  );
}

import { useLiveQueries } from '../realtime/live';

/** Every adoption query: the listing, an owner's ads with their requests, the history, a profile's ads. */
export const ADOPTION_QUERY_ROOTS = [['adoptions'], ['user-adoptions']] as const;

/** How often the adoption lists are read again while the socket is down (the feed's silent refresh interval). */
const ADOPTION_POLL_MS = 30_000;

/**
 * Mounted once for the signed-in user: an adoption change the server announces to them (`adoptionsChanged`: a new
 * request on their ad, an answer to their request, an ad they requested changed) has their adoption lists read
 * again, and while the socket is down they are read every 30 s.
 */
export function useAdoptionsLive(): void {
  useLiveQueries('adoptionsChanged', ADOPTION_QUERY_ROOTS, ADOPTION_POLL_MS);
}

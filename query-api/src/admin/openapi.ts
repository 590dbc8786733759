import { z } from 'zod';
import { ADMIN_LIMITS, rebuildRequestBody } from '@pawhaven/contracts';
import type { Operation } from '../system/openapi';

/** The ra-data-simple-rest query of every admin list; each is JSON text. */
const adminListQuery = z.object({
  sort: z.string().optional().describe('JSON ["field","ASC"|"DESC"]; only the listed columns (else 400)'),
  range: z
    .string()
    .optional()
    .describe(
      `JSON [start,end], inclusive, at most ${ADMIN_LIMITS.pageSizeMax} rows; without it the spec's plain array (at most ${ADMIN_LIMITS.plainListMax} rows)`,
    ),
  filter: z
    .string()
    .optional()
    .describe('JSON object of the filters the list accepts (unknown keys are a 400)'),
});

const list = (summary: string): Operation => ({
  summary: `${summary}. A JSON array; Content-Range "{resource} start-end/total" (exposed) and X-Total-Count`,
  query: adminListQuery,
  auth: 'admin',
});
const one = (summary: string): Operation => ({ summary, auth: 'admin' });

/** The admin dashboard's calls (issue 10), for the OpenAPI document. Every one is for admins only (401/403). */
export const adminOperations: Record<string, Operation> = {
  // ── Admin (query side) ──
  'GET /api/admin/overview': one(
    'Overview: veterinarians, regularUsers, admins, ads and requests by status, posts, comments, messages, signUpsPerWeek (12 weeks)',
  ),
  'GET /api/admin/users-with-stats': one(
    "Manage Users (the spec's call): veterinarians, regularUsers (each at most 1000, newest first), userStats keyed by user id { posts, comments, adoptions, requests }, totals",
  ),
  'GET /api/admin/user-stats/:id': one(
    "One user's counts: posts, comments, adoptions, requests (404 unknown)",
  ),
  'GET /api/admin/users': list(
    'Users (not admins unless filter isAdmin) with their counts; filter q (username or e-mail, any case), isVeterinarian, isAdmin, id[]',
  ),
  'GET /api/admin/users/:id': one('One user row'),
  'GET /api/admin/adoptions': list(
    'Adoption ads (admin view, owner populated; deleted ones with filter status "deleted"); filter ownerId/userId, status, q (pet name), id[]',
  ),
  'GET /api/admin/adoptions/user/:userId': list("A user's ads"),
  'GET /api/admin/adoptions/:id': one('One ad (admin view)'),
  'GET /api/admin/adoption-requests': list(
    'Adoption requests (requester and ad populated); filter requesterId/userId, adId, status, id[]',
  ),
  'GET /api/admin/adoption-requests/user/:userId': list('The requests a user sent'),
  'GET /api/admin/adoption-requests/:id': one('One adoption request'),
  'GET /api/admin/posts': list('Posts (author populated, comment and like counts); filter userId, id[]'),
  'GET /api/admin/posts/user/:userId': list("A user's posts"),
  'GET /api/admin/posts/:id': one('One post'),
  'GET /api/admin/comments': list('Comments (author and post populated); filter userId, postId, id[]'),
  'GET /api/admin/comments/user/:userId': list("A user's comments"),
  'GET /api/admin/comments/post/:postId': list("A post's comments"),
  'GET /api/admin/comments/:id': one('One comment'),
  'GET /api/admin/streams': list(
    'Event browser: streams of the log; filter q (substring of the stream id, any case), type (streams holding an event of that type)',
  ),
  'GET /api/admin/streams/:id': one('One stream: events, first and last position and type'),
  'GET /api/admin/events': list(
    'Event browser: events (position, revision, type, data, metadata, time); filter streamId, type; sort by position',
  ),
  'GET /api/admin/events/:id': one('One event by global position'),
  'GET /api/admin/projections': one(
    'Projections screen: each projection with checkpoint, lag, held-back events, last rebuild failure, table rows; the held-back state; the running or last rebuild',
  ),
  'GET /api/admin/projections/rebuild': one('The running or last rebuild: { rebuild } (null when none)'),

  // ── Admin (command side) ──
  'POST /api/admin/projections/rebuild': {
    summary:
      "Rebuild one projection or 'all' in the server, beside the live tables, swapped in at the end; 202 at once with rebuildId; progress goes to admins' sockets (event rebuildProgress); 409 while a rebuild runs anywhere",
    body: rebuildRequestBody,
    auth: 'admin',
    responses: { 202: 'Started', 409: 'A rebuild is already running' },
  },
  // The deletions (command-api/src/admin): each appends an event with the admin as actor.
  'DELETE /api/admin/user/:id': one(
    'Delete a user and all their data (their personal data is crypto-shredded)',
  ),
  'DELETE /api/admin/adoptions/:id': one('Delete an adoption ad'),
  'DELETE /api/admin/adoption-requests/:id': one('Delete an adoption request'),
  'DELETE /api/admin/posts/:id': one('Delete a post'),
  'DELETE /api/admin/comments/:id': one('Delete a comment'),
};

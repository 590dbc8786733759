import { z } from 'zod';

/**
 * Admin dashboard contracts: its screens, rows, calls and errors (issue 10). Every list is served twice on the same
 * path: a plain array (no `range`), and the `ra-data-simple-rest` convention react-admin's stock provider uses:
 *   GET /api/admin/{resource}?sort=["field","ASC"]&range=[0,24]&filter={"q":"..."}
 *   → JSON array of rows (each with `id`), header `Content-Range: {resource} 0-24/{total}` (exposed to CORS).
 *   GET /api/admin/{resource}/{id} → one row.
 */

// ---------------------------------------------------------------------------------------------------------------
// Resources, sorting, paging

/** react-admin resource names = path segments under /api/admin. */
export const ADMIN_RESOURCES = {
  users: 'users',
  adoptions: 'adoptions',
  adoptionRequests: 'adoption-requests',
  posts: 'posts',
  comments: 'comments',
  /** Event browser: one row per stream of the event log. */
  streams: 'streams',
  /** Event browser: one row per event (filter `streamId` and/or `type`). */
  events: 'events',
} as const;
export type AdminResource = (typeof ADMIN_RESOURCES)[keyof typeof ADMIN_RESOURCES];

export const ADMIN_LIMITS = {
  /** Largest page a `range` may ask for (range=[0,N] with N-0+1 above this is a 400). */
  pageSizeMax: 100,
  /** react-admin's default page. */
  pageSizeDefault: 25,
  /**
   * The plain-array calls (no `range`) answer at most this many rows, newest first; `X-Total-Count` and `Content-Range`
   * tell when there are more (use `range` to page). See docs/decisions.md.
   */
  plainListMax: 1000,
  /** Longest `q` search text. */
  searchMaxLength: 100,
  /** Overview: sign-ups per week over this many weeks (oldest first, zero-filled). */
  signUpWeeks: 12,
} as const;

/**
 * Columns each list may be sorted by (`sort=["field","ASC"|"DESC"]`); anything else is a 400. Each order is served by
 * an index (ties newest first), so a page of a 100,000-row list costs milliseconds; the one exception is Manage
 * Users' count columns (posts, comments, adoptions, requests), which count every user first (docs/decisions.md).
 */
export const ADMIN_SORTABLE = {
  users: ['id', 'username', 'email', 'createdAt', 'joinedDate', 'posts', 'comments', 'adoptions', 'requests'],
  adoptions: ['id', 'createdAt', 'name', 'petType', 'age', 'status'],
  'adoption-requests': ['id', 'createdAt', 'name', 'status'],
  posts: ['id', 'createdAt', 'commentCount'],
  comments: ['id', 'createdAt'],
  streams: ['id', 'firstPosition'],
  events: ['id', 'position'],
} as const satisfies Record<AdminResource, readonly string[]>;

/** Default sort of each list (the lists show newest first). */
export const ADMIN_DEFAULT_SORT = {
  users: ['createdAt', 'DESC'],
  adoptions: ['createdAt', 'DESC'],
  'adoption-requests': ['createdAt', 'DESC'],
  posts: ['createdAt', 'DESC'],
  comments: ['createdAt', 'DESC'],
  streams: ['firstPosition', 'DESC'],
  events: ['position', 'ASC'],
} as const satisfies Record<AdminResource, readonly [string, 'ASC' | 'DESC']>;

/** Filters each list accepts (`filter={...}` as JSON). Unknown keys are a 400. `id` (a list of ids) is getMany. */
const ids = z.array(z.string().max(200)).max(ADMIN_LIMITS.pageSizeMax).optional();
const search = z.string().trim().max(ADMIN_LIMITS.searchMaxLength).optional();
const idText = z.string().trim().min(1).max(200).optional();

export const adminUserFilter = z.strictObject({
  id: ids,
  /** Case-insensitive substring of username or email (Manage Users' 'Search by name or email...'). */
  q: search,
  isVeterinarian: z.boolean().optional(),
  isAdmin: z.boolean().optional(),
});
export const adminAdoptionFilter = z.strictObject({
  id: ids,
  /** The ad's owner (ownerId and userId mean the same). */
  ownerId: idText,
  userId: idText,
  status: z.enum(['available', 'adopted', 'deleted']).optional(),
  /** Case-insensitive substring of the pet's name. */
  q: search,
});
export const adminAdoptionRequestFilter = z.strictObject({
  id: ids,
  /** The requester (requesterId and userId mean the same). */
  requesterId: idText,
  userId: idText,
  adId: idText,
  status: z.enum(['pending', 'accepted', 'rejected', 'withdrawn', 'closed']).optional(),
});
export const adminPostFilter = z.strictObject({ id: ids, userId: idText });
export const adminCommentFilter = z.strictObject({ id: ids, userId: idText, postId: idText });
export const adminStreamFilter = z.strictObject({
  id: ids,
  /** Case-insensitive substring of the stream id. */
  q: search,
  /** Streams holding at least one event of this type (exact). */
  type: z.string().trim().max(200).optional(),
});
export const adminEventFilter = z.strictObject({
  id: ids,
  streamId: idText,
  /** Exact event type. */
  type: z.string().trim().max(200).optional(),
});

export const ADMIN_FILTERS = {
  users: adminUserFilter,
  adoptions: adminAdoptionFilter,
  'adoption-requests': adminAdoptionRequestFilter,
  posts: adminPostFilter,
  comments: adminCommentFilter,
  streams: adminStreamFilter,
  events: adminEventFilter,
} as const satisfies Record<AdminResource, z.ZodType>;

// ---------------------------------------------------------------------------------------------------------------
// Row DTOs (each row carries `id` for react-admin and `_id` for the plain-array calls)

export type AdminUserRef = { _id: string; username: string; email: string };

/** Manage Users row; `users-with-stats` lists carry the same rows. */
export type AdminUserRow = {
  id: string;
  _id: string;
  username: string;
  email: string;
  isVeterinarian: boolean;
  isAdmin: boolean;
  verified: boolean;
  city: string;
  about: string;
  profileImage: string | null;
  status: 'online' | 'offline';
  lastActive: string | null;
  /** joinedDate and createdAt are the same instant (the profile calls it joinedDate). */
  joinedDate: string;
  createdAt: string;
  posts: number;
  comments: number;
  adoptions: number;
  requests: number;
};

export type AdminUserStats = { posts: number; comments: number; adoptions: number; requests: number };

/** GET /api/admin/users-with-stats */
export type AdminUsersWithStatsDto = {
  veterinarians: AdminUserRow[];
  regularUsers: AdminUserRow[];
  userStats: Record<string, AdminUserStats>;
  /** How many there are; each list holds at most ADMIN_LIMITS.plainListMax (newest first). */
  totals: { veterinarians: number; regularUsers: number };
};

/** GET /api/admin/user-stats/{id} (the counts plus who it is). */
export type AdminUserStatsDto = AdminUserStats & {
  _id: string;
  id: string;
  userId: string;
  username: string;
  email: string;
  isVeterinarian: boolean;
};

/** Adoptions list row: the admin's view of an ad. */
export type AdminAdoptionRow = {
  id: string;
  _id: string;
  name: string;
  petType: string;
  age: string;
  ageUnit: string;
  breed: string;
  description: string;
  location: string;
  status: 'available' | 'adopted' | 'deleted';
  imageUrl: string;
  /** The owner, populated; null when the user no longer exists (deleted). */
  userId: AdminUserRef | null;
  ownerId: string;
  requestCount: number;
  createdAt: string;
  updatedAt: string;
};

/** Adoption requests list row: the admin's view of a request. */
export type AdminAdoptionRequestRow = {
  id: string;
  _id: string;
  requester: AdminUserRef | null;
  requesterId: string;
  /** The ad, populated; null when it no longer exists. */
  adId: { _id: string; name: string; petType: string } | null;
  name: string;
  email: string;
  phone: string;
  message: string;
  petHistoryImage: string | null;
  status: 'pending' | 'accepted' | 'rejected' | 'withdrawn' | 'closed';
  reason: string | null;
  createdAt: string;
  respondedAt: string | null;
};

/** Posts list row (Image, Caption, User, Created, Comments count). */
export type AdminPostRow = {
  id: string;
  _id: string;
  imageUrl: string;
  caption: string;
  text: string;
  userId: (AdminUserRef & { isVeterinarian: boolean }) | null;
  likeCount: number;
  commentCount: number;
  createdAt: string;
  updatedAt: string;
};

/** Comments list row (Content, User, Post caption + thumbnail, Created). */
export type AdminCommentRow = {
  id: string;
  _id: string;
  content: string;
  userId: (AdminUserRef & { isVeterinarian: boolean }) | null;
  postId: { _id: string; caption: string; imageUrl: string } | null;
  parentCommentId: string | null;
  createdAt: string;
};

/** Event browser: one stream of the log. */
export type AdminStreamRow = {
  /** The stream id. */
  id: string;
  streamId: string;
  /** The stream's category: its id before the aggregate id (e.g. 'adoption-ad'). */
  category: string;
  events: number;
  lastRevision: number;
  firstPosition: string;
  lastPosition: string;
  firstType: string;
  lastType: string;
  createdAt: string;
  updatedAt: string;
};

/** Event browser: one event (position and transaction id are bigints, sent as strings). */
export type AdminEventRow = {
  /** The global position, as text. */
  id: string;
  position: string;
  transactionId: string;
  streamId: string;
  revision: number;
  eventId: string;
  type: string;
  data: unknown;
  metadata: unknown;
  time: string;
};

// ---------------------------------------------------------------------------------------------------------------
// Overview

/** GET /api/admin/overview: the 'User Distribution' chart and the live figures. */
export type AdminOverviewDto = {
  veterinarians: number;
  regularUsers: number;
  admins: number;
  ads: { available: number; adopted: number; deleted: number; total: number };
  requests: {
    pending: number;
    accepted: number;
    rejected: number;
    withdrawn: number;
    closed: number;
    total: number;
  };
  posts: number;
  comments: number;
  messages: number;
  /** Last 12 weeks, oldest first, zero-filled; weekStart is the Monday (UTC) as YYYY-MM-DD. */
  signUpsPerWeek: { weekStart: string; count: number }[];
};

// ---------------------------------------------------------------------------------------------------------------
// Projections screen

/** One read model as the Projections screen shows it (GET /api/admin/projections). */
export type AdminProjectionDto = {
  name: string;
  /** Checkpoint: global position and transaction id of the last event it processed (text). */
  position: string;
  transactionId: string;
  eventsProcessed: number;
  updatedAt: string | null;
  /** Committed events not processed yet (visible or held back). */
  lag: number;
  heldBack: number;
  heldBackSince: string | null;
  /** The last rebuild failure of this projection, if one was recorded since (cleared by a successful rebuild). */
  lastError: string | null;
  lastErrorAt: string | null;
  /** Its tables with their row counts (estimates above 100,000 rows). */
  tables: { name: string; rows: number; estimated: boolean }[];
  /** A rebuild of this projection is running now. */
  rebuilding: boolean;
};

export type AdminProjectionsDto = {
  projections: AdminProjectionDto[];
  /** Head of the log (the highest position committed). */
  headPosition: string;
  heldBack: {
    heldBack: boolean;
    events: number;
    since: string | null;
    seconds: number;
    /** One line per blocking transaction, with the remedy (as the CLI prints it). */
    description: string;
  };
  /** The running or last rebuild (same shape as the progress notice), null when none ran since the start. */
  rebuild: AdminRebuildState | null;
};

/** POST /api/admin/projections/rebuild body: one projection's name, or 'all'. */
export const rebuildRequestBody = z.object({
  name: z
    .string({ error: "name is required: a projection's name or 'all'" })
    .trim()
    .min(1, "name is required: a projection's name or 'all'")
    .max(100),
});
export type RebuildRequest = z.infer<typeof rebuildRequestBody>;

/** 202 answer to the rebuild request. */
export type RebuildAcceptedDto = {
  message: string;
  rebuildId: string;
  target: string;
  names: string[];
  /** Its state at the start (state 'running'); the socket carries the rest. */
  rebuild: AdminRebuildState;
};

/** GET /api/admin/projections/rebuild: the running or last rebuild this server heard of, for a reloaded page. */
export type AdminRebuildStatusDto = { rebuild: AdminRebuildState | null };

export const REBUILD_STATES = ['running', 'finished', 'failed'] as const;
export type RebuildStateName = (typeof REBUILD_STATES)[number];

/**
 * A rebuild's progress, flat (it travels as a change notice): pushed over the socket to admins as event
 * `ADMIN_SOCKET_EVENTS.rebuildProgress` (room `admins`) and answered by GET /api/admin/projections/rebuild.
 * For 'all', `processed`/`total` count events over every projection of the run; `current` is the one being rebuilt.
 */
export type AdminRebuildState = {
  rebuildId: string;
  /** What was asked: a projection name or 'all'. */
  target: string;
  state: RebuildStateName;
  /** The projection being rebuilt now (the last one when finished or failed). */
  current: string;
  /** 1-based index of `current` among `count` projections; 0 while the log is read once for every projection. */
  index: number;
  count: number;
  processed: number;
  total: number;
  /** 0–100, integer. */
  percent: number;
  eventsPerSecond: number;
  /** Estimated seconds left; null until measurable. */
  etaSeconds: number | null;
  startedAt: string;
  finishedAt: string | null;
  /** Why it failed (state 'failed'). */
  error: string | null;
  /** Who asked (admin user id). */
  startedBy: string;
};

/** The change-notice kind carrying rebuild progress (platform notices, channel pawhaven_changes). */
export const REBUILD_PROGRESS_NOTICE = 'rebuild-progress';
export type RebuildProgressNotice = { kind: typeof REBUILD_PROGRESS_NOTICE } & AdminRebuildState;

/** Socket.io: admins' sockets join this room; rebuild progress is emitted there only. */
export const ADMIN_SOCKET_ROOM = 'admins';
export const ADMIN_SOCKET_EVENTS = { rebuildProgress: 'rebuildProgress' } as const;

// ---------------------------------------------------------------------------------------------------------------
// Texts of the dashboard and the server's refusals

export const ADMIN_MESSAGES = {
  // Fallbacks when an answer has no `message`
  httpError: (status: number) => `HTTP error! status: ${status}`,
  fetchUsersFailed: 'Failed to fetch users',
  fetchStatsFailed: 'Failed to fetch stats',
  fetchAdoptionsFailed: 'Failed to fetch adoptions',
  fetchPostsFailed: 'Failed to fetch posts',
  fetchCommentsFailed: 'Failed to fetch comments',
  fetchRequestsFailed: 'Failed to fetch adoption requests',
  fetchUserRequestsFailed: 'Failed to fetch user adoption requests',
  deleteRequestFailed: 'Failed to delete adoption request',
  deleteAdoptionFailed: 'Failed to delete adoption',
  deletePostFailed: 'Failed to delete post',
  deleteCommentFailed: 'Failed to delete comment',
  deleteUserFailed: 'Failed to delete user',
  // Confirmations asked before each deletion
  confirmDeleteAdoption: 'Are you sure you want to delete this adoption post?',
  confirmDeletePost: 'Are you sure you want to delete this post?',
  confirmDeleteComment: 'Are you sure you want to delete this comment?',
  confirmDeleteRequest: 'Are you sure you want to delete this adoption request?',
  confirmDeleteUser: 'Are you sure you want to delete this user and all their data?',
  // Screens
  dashboardTitle: 'Admin Dashboard',
  userDistribution: 'User Distribution',
  loading: 'Loading...',
  searchUsers: 'Search by name or email...',
  veterinariansTab: (n: number) => `Veterinarians (${n})`,
  regularUsersTab: (n: number) => `Regular Users (${n})`,
  noUsers: 'No users found.',
  allAdoptions: 'All Adoptions',
  userAdoptions: "User's Adoptions",
  noAdoptions: 'No adoptions found.',
  noUserAdoptions: 'No adoptions found for this user.',
  allPosts: 'All Posts',
  userPosts: "User's Posts",
  allComments: 'All Post Comments',
  userComments: "User's Post Comments",
  postComments: "Post's Comments",
  requestsForUser: (username: string) => `Adoption Requests for ${username}`,
  backToUsers: 'Back to Users',
  noImage: 'No image',
  close: 'Close',
  // Server refusals
  userNotFound: 'User not found',
  adoptionNotFound: 'Adoption post not found',
  requestNotFound: 'Adoption request not found',
  postNotFound: 'Post not found',
  commentNotFound: 'Comment not found',
  streamNotFound: 'Stream not found',
  eventNotFound: 'Event not found',
  badSort: (resource: string, field: string, allowed: readonly string[]) =>
    `Cannot sort ${resource} by '${field}'. Sortable: ${allowed.join(', ')}`,
  badSortShape: 'sort must be a JSON array ["field","ASC"|"DESC"]',
  badRange: `range must be a JSON array [start,end] with 0 <= start <= end and at most ${ADMIN_LIMITS.pageSizeMax} rows`,
  badFilter: 'filter must be a JSON object',
  unknownProjection: (name: string, known: readonly string[]) =>
    `Unknown projection '${name}'. Known: ${known.join(', ')}, or 'all'`,
  rebuildRunning: 'A rebuild is already running. Wait for it to finish.',
  rebuildStarted: 'Rebuild started',
} as const;

/** Request status colours of the admin lists: display only. */
export const ADMIN_STATUS_COLOURS = {
  pending: 'yellow',
  accepted: 'green',
  rejected: 'red',
  other: 'grey',
} as const;

import { z } from 'zod';
import {
  addCommentBody,
  adoptionAdBody,
  adoptionAdUpdateBody,
  adoptionListQuery,
  adoptionRequestBody,
  changePasswordBody,
  completeGoogleRegistrationBody,
  createPostBody,
  editPostBody,
  forgotPasswordBody,
  loginGoogleBody,
  postListQuery,
  registerBody,
  replyBody,
  requestDecisionBody,
  resendOtpBody,
  resetPasswordBody,
  signinBody,
  updateProfileBody,
  userIdBody,
  verifyRegistrationBody,
  verifyResetCodeBody,
} from '@pawhaven/contracts';
import { adminOperations } from '../admin/openapi';
import { chatOperations } from '../chat/openapi';
import { notificationOperations } from '../notifications/openapi';
import { publicPagesOperations } from '../directory/openapi';

/** One call of the API. The schemas are the very zod schemas its route validates with. */
export type Operation = {
  summary: string;
  /** JSON body. */
  body?: z.ZodType;
  /** multipart/form-data: the text fields' schema and the file field. */
  multipart?: { fields?: z.ZodType; file: string; fileRequired: boolean };
  query?: z.ZodType;
  auth?: 'required' | 'optional' | 'admin';
  /** Creates something: honours Idempotency-Key (every mutating call does; creates are where it matters). */
  creates?: boolean;
  responses?: Record<string, string>;
};

/**
 * Every route the gateway serves, keyed `METHOD /express/path`. A test walks the route table of both apps and
 * fails when a route is missing here (or listed here but not served), so the document cannot fall behind.
 */
export const operations: Record<string, Operation> = {
  // ── Accounts (command side) ──
  'POST /api/auth/register': {
    summary: 'Sign up; e-mails a verification code valid 120 s',
    body: registerBody,
    creates: true,
    responses: { 201: 'Registered' },
  },
  'POST /api/auth/verify-registration': {
    summary: 'Verify the e-mail with the code',
    body: verifyRegistrationBody,
  },
  'POST /api/auth/resend-otp': { summary: 'Send a new verification code', body: resendOtpBody },
  'POST /api/auth/signin': { summary: 'Sign in; sets the refresh-session cookie', body: signinBody },
  'POST /api/auth/refresh': { summary: 'New access token from the refresh-session cookie' },
  'POST /api/auth/signout': { summary: 'Revoke the session', auth: 'optional' },
  'POST /api/auth/login-google': { summary: 'Sign in with a Google ID token', body: loginGoogleBody },
  'POST /api/auth/complete-google-registration': {
    summary: 'Finish a first Google sign-in',
    body: completeGoogleRegistrationBody,
    creates: true,
  },
  'POST /api/auth/forgot-password': { summary: 'E-mail a password reset code', body: forgotPasswordBody },
  'POST /api/auth/resend-reset-code': { summary: 'E-mail a new reset code', body: forgotPasswordBody },
  'POST /api/auth/verify-reset-code': { summary: 'Check a reset code', body: verifyResetCodeBody },
  'POST /api/auth/reset-password': { summary: 'Set a new password with the code', body: resetPasswordBody },
  'POST /api/auth/change-password': {
    summary: 'Change the password',
    body: changePasswordBody,
    auth: 'required',
  },
  'POST /api/auth/update-profile': {
    summary: 'Update phone, city and about',
    body: updateProfileBody,
    auth: 'required',
  },
  'POST /api/auth/upload-profile-image': {
    summary: 'Upload a profile image (< 5 MB)',
    multipart: { file: 'image', fileRequired: true },
    auth: 'required',
  },
  'DELETE /api/auth/remove-profile-image': { summary: 'Remove the profile image', auth: 'required' },

  // ── Accounts (query side) ──
  'GET /api/auth/profile': { summary: 'The signed-in user', auth: 'required' },
  'GET /api/auth/profile/:userId': { summary: "A user's public profile", auth: 'optional' },
  'POST /api/auth/getUserById': { summary: 'One user (public fields)', body: userIdBody, auth: 'required' },
  'POST /api/auth/getAllUsers': { summary: 'All users (public fields)', auth: 'required' },
  'GET /api/auth/debug-token': { summary: 'Check the access token', auth: 'required' },

  // ── Adoption (command side) ──
  'POST /api/adoptions': {
    summary: 'Publish an adoption ad with a photo (< 5 MB)',
    multipart: { fields: adoptionAdBody, file: 'image', fileRequired: true },
    auth: 'required',
    creates: true,
    responses: { 201: 'Published' },
  },
  'PUT /api/adoptions/:id': {
    summary: 'Edit an ad (owner); a new photo is optional',
    multipart: { fields: adoptionAdUpdateBody, file: 'image', fileRequired: false },
    auth: 'required',
  },
  'DELETE /api/adoptions/:id': { summary: 'Delete an ad (owner or admin)', auth: 'required' },
  'POST /api/adoptions/:postId/request': {
    summary: 'Ask to adopt; JSON, or multipart with an optional proof image (< 5 MB)',
    body: adoptionRequestBody,
    multipart: { fields: adoptionRequestBody, file: 'petHistoryImage', fileRequired: false },
    auth: 'required',
    creates: true,
    responses: { 201: 'Requested' },
  },
  'PUT /api/adoptions/requests/:requestId': {
    summary: "Accept or reject a request on one's ad",
    body: requestDecisionBody,
    auth: 'required',
  },
  'POST /api/adoptions/requests/:requestId/withdraw': {
    summary: "Withdraw one's own pending request",
    auth: 'required',
  },

  // ── Adoption (query side) ──
  'GET /api/adoptions': {
    summary: 'Listing: newest first, X-Total-Count; hides the viewer’s own ads',
    query: adoptionListQuery,
    auth: 'optional',
  },
  'GET /api/adoptions/history': { summary: "The signed-in user's requests", auth: 'required' },
  'GET /api/adoptions/user/:userId': {
    summary: "A user's ads; includeRequests=true for the owner or an admin",
    query: z.object({ includeRequests: z.enum(['true', 'false']).optional() }),
    auth: 'optional',
  },
  'GET /api/adoptions/:postId/requests': {
    summary: 'The requests on an ad (owner or admin)',
    auth: 'required',
  },
  'GET /api/adoptions/:id': { summary: 'One ad', auth: 'optional' },
  'GET /api/admin/adoptions/:id/history': {
    summary: "An ad's audit timeline: every event with its status change and actor",
    auth: 'admin',
  },

  // ── Community (command side) ──
  'POST /api/posts': {
    summary: 'Share a post: caption and a PNG, JPEG or GIF image (< 10 MB)',
    multipart: { fields: createPostBody, file: 'image', fileRequired: true },
    auth: 'required',
    creates: true,
    responses: { 201: 'Published: the post, message and position' },
  },
  'PUT /api/posts/:id': { summary: "Edit one's post's caption", body: editPostBody, auth: 'required' },
  'DELETE /api/posts/:id': { summary: 'Delete a post (author or admin)', auth: 'required' },
  'POST /api/posts/:id/like': {
    summary: 'Like or unlike (toggle); answers liked, the whole likes list, likeCount and position',
    auth: 'required',
  },
  'POST /api/comments/:postId': {
    summary: 'Comment on a post',
    body: addCommentBody,
    auth: 'required',
    creates: true,
    responses: { 201: 'The new comment' },
  },
  'POST /api/comments/:postId/comments': {
    summary: 'Reply to a comment of the same post (replies nest)',
    body: replyBody,
    auth: 'required',
    creates: true,
    responses: { 201: 'The new reply' },
  },
  'DELETE /api/comments/:commentId': { summary: 'Delete a comment (its author or admin)', auth: 'required' },

  // ── Community (query side) ──
  'GET /api/posts': {
    summary:
      'The feed: newest first, X-Total-Count; each post with author, likes, counts and its newest comment threads',
    query: postListQuery,
  },
  'GET /api/posts/user/:userId': { summary: "A user's posts, newest first" },
  'GET /api/posts/:id': { summary: 'One post with all its comments' },

  ...chatOperations,
  ...notificationOperations,
  ...publicPagesOperations,
  ...adminOperations,

  // ── System ──
  'GET /api/health': { summary: 'Health of each part' },
  'GET /api/docs': { summary: 'This document' },
  'GET /api/reference': { summary: 'This document as a page to read (Swagger UI)' },
  'GET /api/reference/:file': { summary: "The reference page's script and stylesheet" },
  'GET /api/config': {
    summary: "Public settings: accepted e-mail domain, Google client id, PawHaven's social accounts",
  },
  'GET /api/images/:id': {
    summary: 'A stored image (cached for 5 minutes, ETag; 404 once its content is deleted)',
  },
  'GET /dev/mailbox': {
    summary: 'Development only, loopback only: the e-mails the app sent (JSON with ?to=, else HTML)',
    query: z.object({ to: z.string().optional() }),
  },
};

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** The reference page groups the operations by the part of the product they belong to (first segment after /api). */
const TAGS: [tag: string, segments: string[]][] = [
  ['Accounts', ['auth']],
  ['Adoption', ['adoptions']],
  ['Community', ['posts', 'comments']],
  ['Chat', ['conversations', 'messages']],
  ['Notifications', ['notifications']],
  ['Public pages', ['faqRoutes', 'faq', 'ngos', 'clinics', 'team', 'stats', 'contact']],
  ['Admin', ['admin']],
];
const tagOf = (path: string) =>
  TAGS.find(([, segments]) => segments.includes(path.split('/')[2] ?? ''))?.[0] ?? 'System';

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

function queryParameters(schema: z.ZodType) {
  const json = jsonSchema(schema) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: s,
  }));
}

function requestBody(op: Operation) {
  const content: Record<string, unknown> = {};
  if (op.body) content['application/json'] = { schema: jsonSchema(op.body) };
  if (op.multipart) {
    const fields = op.multipart.fields
      ? (jsonSchema(op.multipart.fields) as { properties?: object; required?: string[] })
      : { properties: {}, required: [] };
    content['multipart/form-data'] = {
      schema: {
        type: 'object',
        properties: { ...fields.properties, [op.multipart.file]: { type: 'string', format: 'binary' } },
        required: [...(fields.required ?? []), ...(op.multipart.fileRequired ? [op.multipart.file] : [])],
      },
    };
  }
  return Object.keys(content).length ? { requestBody: { required: true, content } } : {};
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [key, op] of Object.entries(operations)) {
    const [method, path] = key.split(' ') as [string, string];
    const params = [...path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const mutating = method !== 'GET';
    (paths[toOpenApiPath(path)] ??= {})[method.toLowerCase()] = {
      tags: [tagOf(path)],
      summary: op.summary,
      parameters: [
        ...params,
        ...(op.query ? queryParameters(op.query) : []),
        ...(mutating ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
        ...(!mutating ? [{ $ref: '#/components/parameters/ConsistentAfter' }] : []),
      ],
      ...(op.auth === 'required' || op.auth === 'admin' ? { security: [{ bearer: [] }] } : {}),
      ...(op.auth === 'optional' ? { security: [{}, { bearer: [] }] } : {}),
      ...requestBody(op),
      responses: {
        ...Object.fromEntries(
          Object.entries(op.responses ?? { 200: 'OK' }).map(([s, d]) => [s, { description: d }]),
        ),
        '4XX': {
          description:
            'Refused: { message, error } (400 invalid input with `fields`, 401, 403, 404, 409 conflict, 413, 415, 429)',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'PawHaven API',
      version: '1.0.0',
      description:
        'Commands answer with `position`; send it back as X-Consistent-After on reads. Every mutating call honours an Idempotency-Key header: the same key from the same user answers the first result again.',
    },
    tags: [...TAGS.map(([name]) => ({ name })), { name: 'System' }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'A unique key per logical request (e.g. a UUID); a retry with the same key is answered once',
          schema: { type: 'string', maxLength: 200 },
        },
        ConsistentAfter: {
          name: 'X-Consistent-After',
          in: 'header',
          required: false,
          description: 'A position from a command: the read waits (bounded) until the read models passed it',
          schema: { type: 'string', pattern: '^[0-9]{1,19}$' },
        },
      },
      schemas: {
        Error: {
          type: 'object',
          properties: {
            message: { type: 'string' },
            error: { type: 'string' },
            fields: { type: 'object', additionalProperties: { type: 'string' } },
          },
          required: ['message', 'error'],
        },
      },
    },
  };
}

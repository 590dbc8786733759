import { z } from 'zod';
import {
  changePasswordBody,
  completeGoogleRegistrationBody,
  forgotPasswordBody,
  loginGoogleBody,
  registerBody,
  resendOtpBody,
  resetPasswordBody,
  signinBody,
  updateProfileBody,
  userIdBody,
  verifyRegistrationBody,
  verifyResetCodeBody,
} from '@pawhaven/contracts';

type Operation = {
  summary: string;
  body?: z.ZodType;
  auth?: boolean;
  multipart?: string;
  responses?: Record<string, string>;
};

/** Every call of the API, its request schema taken from the same zod schemas the server validates with. */
const operations: Record<string, Record<string, Operation>> = {
  '/api/auth/register': {
    post: {
      summary: 'Sign up; e-mails a verification code valid 120 s',
      body: registerBody,
      responses: { 201: 'Registered' },
    },
  },
  '/api/auth/verify-registration': {
    post: { summary: 'Verify the e-mail with the code', body: verifyRegistrationBody },
  },
  '/api/auth/resend-otp': { post: { summary: 'Send a new verification code', body: resendOtpBody } },
  '/api/auth/signin': { post: { summary: 'Sign in; sets the refresh-session cookie', body: signinBody } },
  '/api/auth/refresh': { post: { summary: 'New access token from the refresh-session cookie' } },
  '/api/auth/signout': { post: { summary: 'Revoke the session', auth: true } },
  '/api/auth/login-google': { post: { summary: 'Sign in with a Google ID token', body: loginGoogleBody } },
  '/api/auth/complete-google-registration': {
    post: { summary: 'Finish a first Google sign-in', body: completeGoogleRegistrationBody },
  },
  '/api/auth/forgot-password': {
    post: { summary: 'E-mail a password reset code', body: forgotPasswordBody },
  },
  '/api/auth/resend-reset-code': { post: { summary: 'E-mail a new reset code', body: forgotPasswordBody } },
  '/api/auth/verify-reset-code': { post: { summary: 'Check a reset code', body: verifyResetCodeBody } },
  '/api/auth/reset-password': {
    post: { summary: 'Set a new password with the code', body: resetPasswordBody },
  },
  '/api/auth/change-password': {
    post: { summary: 'Change the password', body: changePasswordBody, auth: true },
  },
  '/api/auth/update-profile': {
    post: { summary: 'Update phone, city and about', body: updateProfileBody, auth: true },
  },
  '/api/auth/upload-profile-image': {
    post: { summary: 'Upload a profile image (< 5 MB)', auth: true, multipart: 'image' },
  },
  '/api/auth/remove-profile-image': { delete: { summary: 'Remove the profile image', auth: true } },
  '/api/auth/profile': { get: { summary: 'The signed-in user', auth: true } },
  '/api/auth/profile/{userId}': { get: { summary: "A user's public profile" } },
  '/api/auth/getUserById': { post: { summary: 'One user (public fields)', body: userIdBody, auth: true } },
  '/api/auth/getAllUsers': { post: { summary: 'All users (public fields)', auth: true } },
  '/api/auth/debug-token': { get: { summary: 'Check the access token', auth: true } },
  '/api/config': { get: { summary: 'Public settings: accepted e-mail domain, Google client id' } },
  '/api/health': { get: { summary: 'Health of each part' } },
  '/api/images/{id}': { get: { summary: 'A stored image (immutable, long cache)' } },
};

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, methods] of Object.entries(operations)) {
    paths[path] = {};
    for (const [method, op] of Object.entries(methods)) {
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
        name: m[1],
        in: 'path',
        required: true,
        schema: { type: 'string' },
      }));
      paths[path][method] = {
        summary: op.summary,
        ...(params.length ? { parameters: params } : {}),
        ...(op.auth ? { security: [{ bearer: [] }] } : {}),
        ...(op.body
          ? {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: z.toJSONSchema(op.body, { io: 'input' }) } },
              },
            }
          : op.multipart
            ? {
                requestBody: {
                  required: true,
                  content: {
                    'multipart/form-data': {
                      schema: {
                        type: 'object',
                        properties: { [op.multipart]: { type: 'string', format: 'binary' } },
                        required: [op.multipart],
                      },
                    },
                  },
                },
              }
            : {}),
        responses: {
          ...Object.fromEntries(
            Object.entries(op.responses ?? { 200: 'OK' }).map(([s, d]) => [s, { description: d }]),
          ),
          '4XX': {
            description: 'Refused: { message, error }',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'PawHaven API',
      version: '1.0.0',
      description: 'Commands answer with `position`; send it back as X-Consistent-After on reads.',
    },
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: {
        Error: {
          type: 'object',
          properties: { message: { type: 'string' }, error: { type: 'string' } },
          required: ['message', 'error'],
        },
      },
    },
  };
}

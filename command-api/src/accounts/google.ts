import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';

export type GoogleIdentity = { subject: string; email: string; name: string; emailVerified: boolean };
export type GoogleVerifier = (credential: string) => Promise<GoogleIdentity>;

const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

/**
 * Verifies a Google ID token for our client id. The key set is injectable: production fetches Google's, tests
 * sign tokens with a local key (no network).
 */
export function googleVerifier(clientId: string, keys?: JWTVerifyGetKey): GoogleVerifier {
  const keySet = keys ?? createRemoteJWKSet(new URL('https://www.googleapis.com/oauth2/v3/certs'));
  return async (credential) => {
    const { payload } = await jwtVerify(credential, keySet, { issuer: GOOGLE_ISSUERS, audience: clientId });
    if (typeof payload.sub !== 'string' || typeof payload.email !== 'string')
      throw new Error('incomplete Google token');
    return {
      subject: payload.sub,
      email: payload.email,
      name: typeof payload.name === 'string' ? payload.name : payload.email.split('@')[0]!,
      emailVerified: payload.email_verified === true || payload.email_verified === 'true',
    };
  };
}

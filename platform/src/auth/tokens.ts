import { SignJWT, jwtVerify } from 'jose';
import type { Knex } from 'knex';
import { randomBytes } from 'node:crypto';

export type AccessClaims = { userId: string; sessionId: string; isAdmin: boolean };

/** Short-lived access tokens (HS256). The refresh session behind them lives in the user's event stream. */
export class TokenService {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(claims: AccessClaims): Promise<string> {
    return new SignJWT({ sid: claims.sessionId, adm: claims.isAdmin })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setIssuedAt()
      .setIssuer('pawhaven')
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }

  async verify(token: string): Promise<(AccessClaims & { expiresAt: Date }) | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: 'pawhaven', algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      return {
        userId: payload.sub,
        sessionId: payload.sid,
        isAdmin: payload.adm === true,
        expiresAt: new Date((payload.exp ?? 0) * 1000),
      };
    } catch {
      return null;
    }
  }
}

/** The signing secret: from the environment, or generated once and kept in the database so restarts keep sessions. */
export async function resolveJwtSecret(knex: Knex, fromEnv?: string): Promise<string> {
  if (fromEnv) return fromEnv;
  const generated = randomBytes(48).toString('base64url');
  await knex.raw('INSERT INTO runtime_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [
    'jwt',
    generated,
  ]);
  const row = await knex('runtime_secrets').where({ name: 'jwt' }).first<{ value: string }>();
  return row.value;
}

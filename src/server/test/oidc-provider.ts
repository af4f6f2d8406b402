import { randomUUID } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { OAuth2Server } from 'oauth2-mock-server';

/**
 * The OpenID test provider (oauth2-mock-server) as Google behaves for an offline grant: the
 * code exchange gives a refresh token, the refresh grant (`grant_type=refresh_token`) accepts
 * only a refresh token it issued and answers a new access token without a new refresh token.
 * `verify` is the resource server's bearer check (signature, issuer, expiry, and not one
 * issued before `expireAccessTokens()`), for the YouTube stub to use.
 */
export interface TestOidcProvider {
  server: OAuth2Server;
  issuer: string;
  /** Refresh grants answered, and refused. */
  refreshes: { granted: number; refused: number };
  /** Every access token issued before now is refused by `verify` from now on, as if expired. */
  expireAccessTokens(): void;
  /** The refresh tokens stop working (the user revoked the access). */
  revokeRefreshTokens(): void;
  verify(token: string): Promise<boolean>;
  stop(): Promise<void>;
}

export async function startTestOidcProvider(): Promise<TestOidcProvider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const issuer = server.issuer.url!;
  const refreshTokens = new Set<string>();
  const refreshes = { granted: 0, refused: 0 };
  const issued = new Set<string>();
  const expired = new Set<string>();
  server.service.on('beforeResponse', (response: { body: Record<string, unknown>; statusCode: number }, req: { body?: Record<string, string> }) => {
    const grant = req.body?.grant_type;
    if (typeof response.body.access_token === 'string') issued.add(response.body.access_token);
    if (grant === 'refresh_token') {
      if (!refreshTokens.has(req.body?.refresh_token ?? '')) {
        refreshes.refused++;
        response.statusCode = 400;
        response.body = { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' };
        return;
      }
      refreshes.granted++;
      delete response.body.refresh_token;
      delete response.body.id_token;
      return;
    }
    if (typeof response.body.refresh_token === 'string') refreshTokens.add(response.body.refresh_token);
  });
  // A token of its own each time (two in the same second would otherwise be the same string).
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    token.payload.jti = randomUUID();
  });
  const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  return {
    server,
    issuer,
    refreshes,
    expireAccessTokens() {
      for (const token of issued) expired.add(token);
    },
    revokeRefreshTokens() {
      refreshTokens.clear();
    },
    async verify(token) {
      if (expired.has(token)) return false;
      try {
        await jwtVerify(token, keys, { issuer });
        return true;
      } catch {
        return false;
      }
    },
    stop: () => server.stop(),
  };
}

import * as oidc from 'openid-client';
import { discoverOpenId, readIdentityClaims, supportsPrompt } from '../../platform/openid';
import type { GoogleProfile } from './accounts';

/** What must survive the round trip to the provider; kept in a short-lived signed cookie. */
export interface GoogleFlow {
  state: string;
  nonce: string;
  verifier: string;
}

interface GoogleSignIn {
  start(): Promise<{ url: URL; flow: GoogleFlow }>;
  finish(callbackUrl: URL, flow: GoogleFlow): Promise<GoogleProfile>;
}

interface GoogleOptions {
  clientId: string;
  clientSecret: string;
  issuer: string;
  redirectUri: string;
}

/**
 * Google sign-in through openid-client: discovery, state, nonce and PKCE (CONTRACT §3). The
 * issuer may be any OpenID Connect provider (CONTRACT §23): discovery decides the token
 * endpoint's authentication and the prompt values sent, and userinfo completes the ID token.
 */
export function createGoogleSignIn(options: GoogleOptions): GoogleSignIn {
  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = () => {
    discovered ??= discoverOpenId({ issuer: options.issuer, clientId: options.clientId, clientSecret: options.clientSecret })
      .catch((error: unknown) => {
        discovered = undefined; // try discovery again on the next sign-in
        throw error;
      });
    return discovered;
  };

  return {
    async start() {
      const config = await configuration();
      const flow: GoogleFlow = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: options.redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
        // Google's account chooser; a provider that does not list the value is sent none.
        ...(supportsPrompt(config, 'select_account') ? { prompt: 'select_account' } : {}),
      });
      return { url, flow };
    },
    async finish(callbackUrl, flow) {
      const config = await configuration();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = await readIdentityClaims(config, tokens);
      const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
      return {
        sub: claims.sub,
        email: str(claims.email),
        emailVerified: claims.email_verified === true,
        firstName: str(claims.given_name),
        lastName: str(claims.family_name),
        picture: str(claims.picture),
      };
    },
  };
}

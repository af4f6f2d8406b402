import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * `oidc-provider` (the certified Node.js OpenID provider, nobody here wrote it) with its defaults
 * (CONTRACT §23): `client_secret_basic` for the registered clients, no `select_account`, refresh
 * tokens only through the `offline_access` scope, email and names only at the userinfo endpoint
 * (`conformIdTokenClaims`), opaque access tokens. Revocation, off by default, is switched on, as
 * any provider that has a `revocation_endpoint`. Its own development login and consent pages are
 * what `authorize` fills in, as a person would.
 */
export interface StandardOidcProvider {
  issuer: string;
  provider: Provider;
  /** The claims of each account, by account id (the `sub`). */
  accounts: Map<string, Record<string, unknown>>;
  /**
   * The browser's part of the round trip: from the product's authorization URL through the
   * provider's sign-in (as `accountId`) and consent pages to the redirect back; that URL.
   */
  authorize(authorizationUrl: string, accountId: string): Promise<URL>;
  /** Whether the access token is one the provider issued and still honours (a resource server's check). */
  verify(token: string): Promise<boolean>;
  /** Whether the refresh token still works (not revoked). */
  refreshTokenAlive(token: string): Promise<boolean>;
  stop(): Promise<void>;
}

export interface StandardClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export async function startStandardOidcProvider(clients: StandardClient[]): Promise<StandardOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, Record<string, unknown>>();
  const provider = new Provider(issuer, {
    clients: clients.map((client) => ({ ...client, grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] })),
    claims: { email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name', 'picture'] },
    features: { revocation: { enabled: true } },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, ...accounts.get(sub) }),
    }),
  });
  server.on('request', provider.callback());

  const cookies = new Map<string, string>();
  const keepCookies = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');

  return {
    issuer,
    provider,
    accounts,
    async authorize(authorizationUrl, accountId) {
      cookies.clear();
      let url = new URL(authorizationUrl);
      let body: URLSearchParams | undefined;
      for (let hop = 0; hop < 12; hop++) {
        if (url.origin !== issuer) return url;
        const response = await fetch(url, {
          method: body ? 'POST' : 'GET',
          body,
          headers: { cookie: cookieHeader(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
          redirect: 'manual',
        });
        keepCookies(response);
        body = undefined;
        const location = response.headers.get('location');
        if (location) {
          url = new URL(location, url);
          continue;
        }
        const page = await response.text();
        if (response.status !== 200) throw new Error(`The provider answered ${response.status}: ${page.slice(0, 500)}`);
        // Its development pages: a sign-in form (any password), then a consent form.
        const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
        const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
        if (!prompt || !action) throw new Error(`An unexpected page from the provider: ${page.slice(0, 500)}`);
        body = new URLSearchParams(prompt === 'login' ? { prompt, login: accountId, password: 'any' } : { prompt });
        url = new URL(action, url);
      }
      throw new Error('Too many hops at the provider');
    },
    async verify(token) {
      const found = await provider.AccessToken.find(token);
      return found !== undefined && !found.isExpired;
    },
    async refreshTokenAlive(token) {
      const found = await provider.RefreshToken.find(token);
      return found !== undefined && !found.isExpired;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

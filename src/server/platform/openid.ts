import * as oidc from 'openid-client';

/** An OAuth client registered at an OpenID provider (`GOOGLE_ISSUER`). */
export interface OpenIdClient {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Google's issuer: the one provider whose unannounced habits the product relies on (decision 176). */
const GOOGLE_ISSUER = 'https://accounts.google.com';

/**
 * The `prompt` values a provider that announces none is taken to understand: OpenID Connect
 * Core's own, less `select_account`, which certified providers may refuse (oidc-provider does).
 * Google announces none and documents `select_account` and `consent`.
 */
const UNANNOUNCED_PROMPTS = ['none', 'login', 'consent'];
const GOOGLE_PROMPTS = ['none', 'consent', 'select_account'];

/**
 * The token endpoint methods the product can use, by their discovery names: those with the
 * client secret, and `none` (a public client, PKCE alone) for a provider that offers nothing else.
 */
const AUTH_METHODS: Record<string, (secret: string) => oidc.ClientAuth> = {
  client_secret_basic: oidc.ClientSecretBasic,
  client_secret_post: oidc.ClientSecretPost,
  client_secret_jwt: (secret) => oidc.ClientSecretJwt(secret),
  none: () => oidc.None(),
};

/**
 * Discovery, with the token endpoint's authentication method the provider announces: the first
 * of its `token_endpoint_auth_methods_supported` the product can do with a client secret (Google
 * lists `client_secret_post` first, as before; oidc-provider `client_secret_basic`), else `none`
 * if listed; `client_secret_basic`, the default OpenID Connect Discovery gives a provider that
 * lists nothing (CONTRACT §23, decision 176). An http issuer
 * is only accepted because the operator configured it explicitly.
 */
export async function discoverOpenId(client: OpenIdClient): Promise<oidc.Configuration> {
  const insecure = client.issuer.startsWith('http:');
  const discovered = await oidc.discovery(
    new URL(client.issuer),
    client.clientId,
    client.clientSecret,
    undefined,
    insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
  );
  const server = discovered.serverMetadata();
  const offered = server.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  const method = offered.find((m) => m !== 'none' && m in AUTH_METHODS) ?? offered.find((m) => m === 'none');
  if (!method) throw new Error(`The provider offers no client authentication the product can use (${offered.join(', ')})`);
  const config = new oidc.Configuration(server, client.clientId, client.clientSecret, AUTH_METHODS[method]!(client.clientSecret));
  if (insecure) oidc.allowInsecureRequests(config);
  return config;
}

/** Whether `prompt=value` may be sent: never a value the provider's discovery does not list. */
export function supportsPrompt(config: oidc.Configuration, value: string): boolean {
  const server = config.serverMetadata();
  const announced = server.prompt_values_supported as string[] | undefined;
  if (Array.isArray(announced)) return announced.includes(value);
  return (server.issuer === GOOGLE_ISSUER ? GOOGLE_PROMPTS : UNANNOUNCED_PROMPTS).includes(value);
}

/**
 * The authorization parameters that ask for a refresh token: the standard `offline_access`
 * scope (with `openid`, and the consent it requires) where `scopes_supported` lists it, else
 * Google's `access_type=offline`.
 */
export function offlineAccessParameters(config: oidc.Configuration, scopes: readonly string[]): Record<string, string> {
  const standard = config.serverMetadata().scopes_supported?.includes('offline_access') === true;
  const consent: Record<string, string> = supportsPrompt(config, 'consent') ? { prompt: 'consent' } : {};
  if (standard) return { scope: ['openid', 'offline_access', ...scopes].join(' '), ...consent };
  return { scope: scopes.join(' '), access_type: 'offline', ...consent, include_granted_scopes: 'true' };
}

/**
 * The ID token's claims, completed from the userinfo endpoint where the ID token lacks email or
 * names (OpenID Connect Core lets a provider put them there only). The ID token wins where both
 * say something; a userinfo answer for another subject is refused by openid-client.
 */
export async function readIdentityClaims(
  config: oidc.Configuration,
  tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
): Promise<Record<string, unknown> & { sub: string }> {
  const claims = tokens.claims();
  if (!claims) throw new Error('No ID token claims');
  const lacking = ['email', 'given_name', 'family_name'].some((name) => claims[name] === undefined);
  if (!lacking || !config.serverMetadata().userinfo_endpoint) return { ...claims };
  try {
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    return { ...userinfo, ...claims };
  } catch (error) {
    // Names are a nicety: an ID token with the email signs in without them.
    if (typeof claims.email === 'string') return { ...claims };
    throw error;
  }
}

/** Revokes a token at the provider's `revocation_endpoint`; false when it announces none. */
export async function revokeToken(config: oidc.Configuration, token: string, hint: 'refresh_token' | 'access_token'): Promise<boolean> {
  if (!config.serverMetadata().revocation_endpoint) return false;
  await oidc.tokenRevocation(config, token, { token_type_hint: hint });
  return true;
}

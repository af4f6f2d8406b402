import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';
import { apiError } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Security headers with a Content-Security-Policy the built client satisfies, and the Origin
 * check of CONTRACT §2: a state-changing request from another origin is refused. SameSite=Lax
 * cookies already stop most cross-site posts; the Origin check closes the rest (same-site
 * subdomains, older browsers).
 */
export async function registerSecurity(app: FastifyInstance, publicOrigin: string, extraConnectSrc: string[] = []) {
  const headers = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        scriptSrc: ["'self'", 'https://js.stripe.com'],
        frameSrc: ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'],
        // Radix positions popovers with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:', 'https://api.stripe.com', ...extraConnectSrc],
      },
    },
    crossOriginEmbedderPolicy: false,
    // Google's consent page opens as a top-level navigation; nothing needs cross-origin windows.
    crossOriginOpenerPolicy: { policy: 'same-origin' },
  });
  const { everywhere, htmlOnly } = splitHeaders(headers);
  // Callback hooks, not async ones: they run on every request, and a promise each is measurable (issue 16).
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(everywhere);
    // Stored files are the user's own: no other site may embed them (audio, images, video).
    // Decided on the route the router matched (after percent-decoding), never on the URL's text:
    // `/%6Fbjects/…` is the same route and gets the same header (CONTRACT §9).
    if (request.routeOptions.url?.startsWith('/objects/')) reply.header('cross-origin-resource-policy', 'same-origin');
    if (SAFE_METHODS.has(request.method) || isAllowedOrigin(request.headers.origin, publicOrigin)) done();
    else done(apiError('cross_origin'));
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (isHtml(reply.getHeader('content-type'))) reply.headers(htmlOnly);
    done(null, payload);
  });
}

/**
 * Headers that only mean something on a document (the policy, framing, cross-origin isolation,
 * referrer) go on HTML responses alone: on JSON they were ~800 bytes, twice the body of
 * GET /api/user (issue 16). `nosniff` and HSTS stay on every response.
 */
const EVERYWHERE = new Set(['x-content-type-options', 'strict-transport-security']);
const isHtml = (contentType: unknown) => typeof contentType === 'string' && contentType.startsWith('text/html');

function splitHeaders(headers: Record<string, string>) {
  const everywhere: Record<string, string> = {};
  const htmlOnly: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) (EVERYWHERE.has(name) ? everywhere : htmlOnly)[name] = value;
  return { everywhere, htmlOnly };
}

/** Browsers always send Origin on cross-origin writes and WebSocket upgrades; other clients may omit it. */
export function isAllowedOrigin(origin: string | undefined, publicOrigin: string): boolean {
  return origin === undefined || origin === publicOrigin;
}

/**
 * helmet decides the headers; they are the same for every response, so they are worked out once
 * here instead of on each request (helmet's per-request work cost two thirds of a bare request's
 * throughput: docs/decisions/003-sessions-and-login-throttling.md).
 */
function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, response, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

import { lookup } from 'node:dns/promises';
import type http from 'node:http';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { useAgent } from 'request-filtering-agent';

/**
 * The one guard against server-side request forgery, for every request this server makes to a URL
 * a person gave it (a link's preview, CONTRACT §5; a webhook endpoint, §28): the connection goes
 * through request-filtering-agent, which refuses loopback, private, link-local and unspecified
 * addresses after DNS resolution, at the moment of connecting, so neither a hostname resolving
 * inside the network nor a DNS answer changed since the URL was saved gets a request out.
 * `allowPrivate` (WEBHOOK_ALLOW_PRIVATE, for a label whose tools run on its own network) lifts
 * the private and loopback refusal.
 */
export function guardedAgent(url: URL | string, options: { allowPrivate?: boolean } = {}): http.Agent {
  return options.allowPrivate ? useAgent(url.toString(), { allowPrivateIPAddress: true }) : useAgent(url.toString());
}

/**
 * The same rule asked ahead of any request: does `url`'s host resolve only to public (unicast)
 * addresses? Answers why not, or null. For a URL saved to be fetched later, so the person saving
 * it hears at once; the request still goes through `guardedAgent`, which checks again.
 */
export async function privateAddressOf(url: URL): Promise<string | null> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return `${host} does not resolve`;
    }
  }
  for (const address of addresses) {
    const range = ipaddr.process(address).range();
    if (range !== 'unicast') return `${host} is a ${range === 'loopback' ? 'loopback' : 'private'} address (${address})`;
  }
  return null;
}

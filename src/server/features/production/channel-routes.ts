import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { userOf } from '../../platform/sessions';
import type { ChannelFlow, LabelChannel } from './channel';

const FLOW_COOKIE = 'channel_flow';
const FLOW_TTL_S = 10 * 60;
/** Where the browser lands after the round trip: the channel page, told how it went. */
const CHANNEL_PAGE = '/admin/channel';

/**
 * The label's channel (CONTRACT §16), on the team's route group (admins only): its status, the
 * OAuth round trip that connects it, and disconnecting it.
 */
export function channelRoutes(team: FastifyInstance, { channel, config, now }: { channel: LabelChannel; config: Config; now: () => Date }) {
  const flowCookie = {
    path: '/api/admin/channel',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.publicUrl.protocol === 'https:',
    signed: true,
  };

  team.get('/api/admin/channel', async () => channel.status());

  team.get('/api/admin/channel/connect', async (request, reply) => {
    if (!channel.configured) return reply.redirect(`${CHANNEL_PAGE}?error=not_configured`);
    try {
      const { url, flow } = await channel.start();
      reply.setCookie(FLOW_COOKIE, JSON.stringify(flow), { ...flowCookie, maxAge: FLOW_TTL_S });
      return reply.redirect(url.toString());
    } catch (error) {
      request.log.warn({ err: error }, 'connecting the channel could not start');
      return reply.redirect(`${CHANNEL_PAGE}?error=failed`);
    }
  });

  team.get('/api/admin/channel/callback', async (request, reply) => {
    const flow = readFlow(request.cookies[FLOW_COOKIE], (v) => request.unsignCookie(v));
    reply.clearCookie(FLOW_COOKIE, { path: flowCookie.path });
    if (!flow || !channel.configured) return reply.redirect(`${CHANNEL_PAGE}?error=failed`);
    const callbackUrl = new URL(request.url, config.publicUrl);
    if (callbackUrl.searchParams.get('error') === 'access_denied') return reply.redirect(`${CHANNEL_PAGE}?error=denied`);
    try {
      await channel.finish(callbackUrl, flow, userOf(request).id, now());
      request.log.info({ adminId: userOf(request).id }, 'channel connected');
      return reply.redirect(CHANNEL_PAGE);
    } catch (error) {
      // The error names what failed, never a token: openid-client's and ours carry no token values.
      request.log.warn({ err: error }, 'connecting the channel failed');
      return reply.redirect(`${CHANNEL_PAGE}?error=failed`);
    }
  });

  team.delete('/api/admin/channel', async (request) => {
    const { revoked, error } = await channel.disconnect();
    if (error) request.log.warn({ err: error }, "the channel's grant could not be revoked at the provider");
    request.log.info({ adminId: userOf(request).id, revoked }, 'channel disconnected');
    return channel.status();
  });
}

function readFlow(raw: string | undefined, unsign: (value: string) => { valid: boolean; value: string | null }): ChannelFlow | undefined {
  if (!raw) return undefined;
  const unsigned = unsign(raw);
  if (!unsigned.valid || !unsigned.value) return undefined;
  try {
    const flow = JSON.parse(unsigned.value) as Partial<ChannelFlow>;
    if (typeof flow.state === 'string' && typeof flow.verifier === 'string') return flow as ChannelFlow;
  } catch {
    // a malformed cookie is the same as none
  }
  return undefined;
}

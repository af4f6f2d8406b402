import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, ne, or } from 'drizzle-orm';
import { allowlistSchema, ownersBodySchema, signAgreementSchema, signByLinkSchema } from '@shared/rights';
import { OBJECT_ID_PATTERN } from '@shared/submissions';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { agreements, submissions, type SubmissionRow, type UserRow } from '../../platform/db/schema';
import { apiError, parseInput } from '../../platform/errors';
import { rateLimited } from '../../platform/rate-limits';
import { requireAdmin, requireUser, userOf } from '../../platform/sessions';
import { toSubmission } from '../../domain/submission/to-submission';
import {
  changeOwners,
  readAgreement,
  signAsArtist,
  signByLink,
  signaturesOf,
  signedCopyByLink,
  viewByLink,
  type SignatureOrigin,
} from '../../domain/submission/agreement';
import { renderAgreementPdf } from '../../domain/submission/agreement-pdf';
import { allowlistLetterFor } from '../../domain/submission/allowlist-letter';
import { markAllowlist, rightsState } from '../../domain/submission/rights';
import { attachment } from '../../platform/content-disposition';

type WithId = { Params: { id: string } };
type WithToken = { Params: { token: string } };

/** The submission for its artist or (not a draft) an admin; anyone else: not found. */
async function visibleSubmission(db: Db, user: Pick<UserRow, 'id' | 'role'>, id: string): Promise<SubmissionRow> {
  const own = eq(submissions.userId, user.id);
  const visible = user.role === 'admin' ? or(own, ne(submissions.status, 'draft')) : own;
  const [row] = await db.select().from(submissions).where(and(eq(submissions.id, id), visible)).limit(1);
  if (!row) throw apiError('submission_not_found');
  return row;
}

const originOf = (request: FastifyRequest, now: Date): SignatureOrigin => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
  now,
});

const idGuard = async (request: FastifyRequest) => {
  const { id } = (request.params ?? {}) as { id?: string };
  if (id !== undefined && !OBJECT_ID_PATTERN.test(id)) throw apiError('submission_not_found');
};

/**
 * Rights before release (CONTRACT §22): the artist's split sheet and licence agreement, a
 * co-owner's signing link (no account), and the desk's rights step with the allowlist letter.
 * The publishing gate itself is the domain's `requireRights`, called by both publishing routes.
 */
export async function rightsRoutes(app: FastifyInstance, { db, config, now }: { db: Db; config: Config; now: () => Date }) {
  const labelName = config.billing.legalName;
  const noStore = async (_request: FastifyRequest, reply: { header(name: string, value: string): unknown }) => {
    reply.header('cache-control', 'no-store');
  };

  await app.register(async (artist) => {
    artist.addHook('onRequest', requireUser);
    artist.addHook('onSend', noStore);
    artist.addHook('preHandler', idGuard);

    artist.put<WithId>('/api/submissions/:id/owners', async (request) => {
      const { owners } = parseInput(ownersBodySchema, request.body);
      return toSubmission(await changeOwners(db, userOf(request).id, request.params.id, owners, now()));
    });

    artist.get<WithId>('/api/submissions/:id/agreement', async (request) => {
      const submission = await visibleSubmission(db, userOf(request), request.params.id);
      return readAgreement(db, submission, labelName, now());
    });

    artist.post<WithId>('/api/submissions/:id/agreement/sign', async (request) => {
      const input = parseInput(signAgreementSchema, request.body);
      const user = userOf(request);
      const agreement = await signAsArtist(db, app.outbox, user.id, request.params.id, input, labelName, originOf(request, now()));
      request.log.info({ submissionId: request.params.id, userId: user.id, onBehalf: input.onBehalf === true }, 'agreement signed');
      return agreement;
    });

    artist.get<WithId>('/api/submissions/:id/agreement.pdf', async (request, reply) => {
      const submission = await visibleSubmission(db, userOf(request), request.params.id);
      // Made on first read like the JSON: the PDF is drawn from the stored rows only.
      await readAgreement(db, submission, labelName, now());
      const [agreement] = await db.select().from(agreements).where(eq(agreements.submissionId, submission.id));
      const pdf = await renderAgreementPdf(agreement!, await signaturesOf(db, submission.id), submission.songTitle, labelName);
      return reply.type('application/pdf').header('content-disposition', attachment('agreement.pdf')).send(pdf);
    });
  });

  await app.register(async (link) => {
    link.addHook('onSend', noStore);
    link.addHook('preHandler', async (request) => {
      const { token } = request.params as { token: string };
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw apiError('signing_link_not_found');
    });
    link.get<WithToken>('/api/sign/:token', rateLimited('signingLinks', 'address'), async (request) => viewByLink(db, request.params.token, labelName, now()));
    // The thank-you page's copy, with the link just used, for an hour after signing (decision 189).
    link.get<WithToken>('/api/sign/:token/agreement.pdf', rateLimited('signingLinks', 'address'), async (request, reply) => {
      const pdf = await signedCopyByLink(db, request.params.token, labelName, now());
      return reply.type('application/pdf').header('content-disposition', attachment('agreement.pdf')).send(pdf);
    });
    link.post<WithToken>('/api/sign/:token', rateLimited('signingLinks', 'address'), async (request) => {
      const input = parseInput(signByLinkSchema, request.body);
      const signed = await signByLink(db, app.outbox, request.params.token, input, labelName, originOf(request, now()));
      request.log.info('agreement signed through a signing link');
      return signed;
    });
  });

  await app.register(async (team) => {
    team.addHook('onRequest', requireAdmin);
    team.addHook('onSend', noStore);
    team.addHook('preHandler', idGuard);

    team.get<WithId>('/api/admin/submissions/:id/rights', async (request) => rightsState(db, await visibleSubmission(db, userOf(request), request.params.id)));

    team.post<WithId>('/api/admin/submissions/:id/allowlist', async (request) => {
      const { done } = parseInput(allowlistSchema, request.body);
      const admin = userOf(request);
      const row = await markAllowlist(db, admin.id, request.params.id, done, now());
      request.log.info({ submissionId: row.id, adminId: admin.id, done }, 'allowlist marked');
      return rightsState(db, row);
    });

    team.get<WithId>('/api/admin/submissions/:id/allowlist-letter.pdf', async (request, reply) => {
      const submission = await visibleSubmission(db, userOf(request), request.params.id);
      const [agreement] = await db.select().from(agreements).where(eq(agreements.submissionId, submission.id));
      const signatures = agreement ? await signaturesOf(db, submission.id) : [];
      const pdf = await allowlistLetterFor(db, submission, { labelName, configuredChannelId: config.production.youtube?.channelId, agreement, signatures, date: now() });
      if (!pdf) throw apiError('channel_not_connected');
      return reply.type('application/pdf').header('content-disposition', attachment('allowlist-letter.pdf')).send(pdf);
    });
  });
}

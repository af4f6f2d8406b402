import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import { ownerEmailSchema, ownerIdParam, payeeLinkSchema, taxFormSchema } from '@shared/payee-schemas';
import { ownersOf } from '@shared/rights';
import { OBJECT_ID_PATTERN } from '@shared/submissions';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { submissions, users } from '../../platform/db/schema';
import { apiError, parseInput } from '../../platform/errors';
import { rateLimited } from '../../platform/rate-limits';
import { requireAdmin, requireUser, userOf } from '../../platform/sessions';
import { giveOwnerEmail } from '../../domain/bonus/earning-shares';
import { lockOwnSubmission } from '../../domain/submission/lock-own-submission';
import {
  accountantCsv,
  allPayees,
  existingArtistPayee,
  fileTaxForm,
  invitePayee,
  payeeById,
  payeeByToken,
  payeeOfArtist,
  payeePage,
  requestPayeeLink,
  statementLines,
  statementYears,
  taxFormOf,
  taxFormSummary,
} from '../../domain/bonus/payees';
import { printable, renderStatementPdf, renderTaxFormPdf } from '../../domain/bonus/tax-papers-pdf';

type WithToken = { Params: { token: string } };
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;
const YEAR = /^(19|20|21)\d\d$/;

const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header('cache-control', 'no-store');
};

const pdf = (reply: FastifyReply, name: string, body: Buffer) => reply.type('application/pdf').header('content-disposition', `attachment; filename="${name}"`).send(body);

const yearOf = (value: string) => {
  if (!YEAR.test(value)) throw apiError('statement_not_found');
  return Number(value);
};

/**
 * Every owner paid, with papers (CONTRACT §24): the artist's tax form and statements, a payee's
 * own page by their emailed link (no account), the team's payees and the accountant's CSV, and an
 * email for an owner who had none. Paying is the payments feature's (payouts.ts).
 */
export async function payeeRoutes(app: FastifyInstance, { db, config, now }: { db: Db; config: Config; now: () => Date }) {
  const key = config.production.tokenKey;

  await app.register(async (artist) => {
    artist.addHook('onRequest', requireUser);
    artist.addHook('onSend', noStore);
    const artistOnly = (request: FastifyRequest) => {
      const user = userOf(request);
      if (user.role === 'admin') throw apiError('payouts_for_artists');
      return user;
    };

    artist.get('/api/payouts/tax-form', async (request) => {
      const payee = await existingArtistPayee(db, artistOnly(request).id);
      return taxFormSummary(payee ? await taxFormOf(db, payee.id) : undefined);
    });

    artist.post('/api/payouts/tax-form', async (request, reply) => {
      const user = artistOnly(request);
      const form = parseInput(taxFormSchema, request.body);
      const payee = await payeeOfArtist(db, user);
      const filed = await fileTaxForm(db, key, { payeeId: payee.id, form, by: user.id, ip: request.ip, userAgent: request.headers['user-agent'] ?? null, now: now() });
      request.log.info({ payeeId: payee.id, kind: form.kind }, 'tax form filed');
      return reply.status(201).send(filed);
    });

    artist.get('/api/payouts/tax-form.pdf', async (request, reply) => {
      const user = artistOnly(request);
      const payee = await existingArtistPayee(db, user.id);
      const form = payee ? await taxFormOf(db, payee.id) : undefined;
      if (!form) throw apiError('tax_form_not_found');
      return pdf(reply, `tax-form-${form.kind}.pdf`, await renderTaxFormPdf(printable(form), user.email));
    });

    artist.get('/api/payouts/statements', async (request) => {
      const payee = await existingArtistPayee(db, artistOnly(request).id);
      return payee ? statementYears(db, payee.id) : [];
    });

    artist.get<{ Params: { year: string } }>('/api/payouts/statements/:year.pdf', async (request, reply) => {
      const year = yearOf(request.params.year);
      const payee = await existingArtistPayee(db, artistOnly(request).id);
      if (!payee) throw apiError('statement_not_found');
      const lines = await statementLines(db, payee.id, year);
      if (lines.length === 0) throw apiError('statement_not_found');
      const form = await taxFormOf(db, payee.id);
      return pdf(reply, `bonus-statement-${year}.pdf`, await renderStatementPdf({ year, payeeName: payee.name, form: form && printable(form), lines, seller: config.billing }));
    });

    // CONTRACT §24: an owner who had no email gets one after approval (only the artist, only for an owner without one).
    artist.put<{ Params: { id: string; ownerId: string } }>('/api/submissions/:id/owners/:ownerId/email', async (request) => {
      const { id } = request.params;
      if (!OBJECT_ID_PATTERN.test(id)) throw apiError('submission_not_found');
      const ownerId = ownerIdParam.safeParse(request.params.ownerId);
      if (!ownerId.success) throw apiError('owner_not_found');
      const { email } = parseInput(ownerEmailSchema, request.body);
      const user = userOf(request);
      return db.transaction(async (tx) => {
        const submission = await lockOwnSubmission(tx, user.id, id);
        if (!['approved', 'in_production', 'completed', 'published'].includes(submission.status)) throw apiError('owners_not_final');
        const owners = ownersOf(submission);
        const owner = owners[ownerId.data];
        if (!owner) throw apiError('owner_not_found');
        if (ownerId.data === 0) throw apiError('owner_is_artist');
        if (owner.email) throw apiError('owner_has_email');
        if (owners.some((o) => o.email === email)) throw apiError('bad_request', 'Another owner of this song has that address');
        const changed = owners.map((o, i) => (i === ownerId.data ? { ...o, email } : o));
        await tx.update(submissions).set({ owners: changed, updatedAt: now() }).where(eq(submissions.id, id));
        const { invited } = await giveOwnerEmail(tx, app.outbox, { submissionId: id, ownerId: ownerId.data, email, owners });
        request.log.info({ submissionId: id, ownerId: ownerId.data, invited }, 'owner email added');
        return { ownerId: ownerId.data, name: owner.name, email, invited };
      });
    });
  });

  // A payee's own page, by their emailed link (no account). The token reads only its own payee.
  await app.register(async (link) => {
    link.addHook('onSend', noStore);

    link.post('/api/payee/link', rateLimited('signingLinks', 'address'), async (request, reply) => {
      const { email } = parseInput(payeeLinkSchema, request.body);
      // 202 whether or not the address is a payee's: the answer tells nobody who is paid.
      await requestPayeeLink(db, app.outbox, email);
      return reply.status(202).send({ sent: true });
    });

    await link.register(async (byToken) => {
      byToken.addHook('preHandler', async (request) => {
        const { token } = request.params as { token: string };
        if (!TOKEN.test(token)) throw apiError('payee_link_gone');
      });
      const payeeOf = (request: FastifyRequest<WithToken>) => payeeByToken(db, request.params.token, now());

      byToken.get<WithToken>('/api/payee/:token', rateLimited('signingLinks', 'address'), async (request) => payeePage(db, await payeeOf(request)));

      // POST /api/payee/:token/payout-account is the payments feature's (payments/routes.ts): Stripe is its.

      byToken.post<WithToken>('/api/payee/:token/tax-form', rateLimited('signingLinks', 'address'), async (request, reply) => {
        const payee = await payeeOf(request);
        const form = parseInput(taxFormSchema, request.body);
        const filed = await fileTaxForm(db, key, { payeeId: payee.id, form, by: null, ip: request.ip, userAgent: request.headers['user-agent'] ?? null, now: now() });
        request.log.info({ payeeId: payee.id, kind: form.kind }, 'tax form filed through a payee link');
        return reply.status(201).send(filed);
      });

      byToken.get<WithToken>('/api/payee/:token/tax-form.pdf', rateLimited('signingLinks', 'address'), async (request, reply) => {
        const payee = await payeeOf(request);
        const form = await taxFormOf(db, payee.id);
        if (!form) throw apiError('tax_form_not_found');
        return pdf(reply, `tax-form-${form.kind}.pdf`, await renderTaxFormPdf(printable(form), payee.email));
      });

      byToken.get<WithToken>('/api/payee/:token/statements', rateLimited('signingLinks', 'address'), async (request) => statementYears(db, (await payeeOf(request)).id));

      byToken.get<{ Params: { token: string; year: string } }>('/api/payee/:token/statements/:year.pdf', rateLimited('signingLinks', 'address'), async (request, reply) => {
        const payee = await payeeByToken(db, request.params.token, now());
        const year = yearOf(request.params.year);
        const lines = await statementLines(db, payee.id, year);
        if (lines.length === 0) throw apiError('statement_not_found');
        const form = await taxFormOf(db, payee.id);
        return pdf(reply, `bonus-statement-${year}.pdf`, await renderStatementPdf({ year, payeeName: payee.name, form: form && printable(form), lines, seller: config.billing }));
      });
    });
  });

  await app.register(async (team) => {
    team.addHook('onRequest', requireAdmin);
    team.addHook('onSend', noStore);
    const payeeParam = (value: string) => {
      if (!OBJECT_ID_PATTERN.test(value)) throw apiError('payee_not_found');
      return value;
    };

    team.get('/api/admin/payees', async () => allPayees(db));

    team.post<{ Params: { payeeId: string } }>('/api/admin/payees/:payeeId/invite', async (request, reply) => {
      await invitePayee(db, app.outbox, payeeParam(request.params.payeeId));
      request.log.info({ payeeId: request.params.payeeId, adminId: userOf(request).id }, 'payee link sent by the team');
      return reply.status(202).send({ sent: true });
    });

    team.get<{ Params: { payeeId: string } }>('/api/admin/payees/:payeeId/tax-form.pdf', async (request, reply) => {
      const payee = await payeeById(db, payeeParam(request.params.payeeId));
      const form = await taxFormOf(db, payee.id);
      if (!form) throw apiError('tax_form_not_found');
      const [account] = payee.userId ? await db.select({ email: users.email }).from(users).where(eq(users.id, payee.userId)) : [];
      return pdf(reply, `tax-form-${form.kind}.pdf`, await renderTaxFormPdf(printable(form), payee.email ?? account?.email ?? null));
    });

    team.get<{ Params: { year: string } }>('/api/admin/payouts/:year.csv', async (request, reply) => {
      const year = yearOf(request.params.year);
      const csv = await accountantCsv(db, year, config.payees.taxReportingThresholdUsd);
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="payouts-${year}.csv"`).send(csv);
    });
  });
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import { BILLING_DOCUMENT_KINDS, BILLING_DOCUMENT_FILE, DOCUMENT_NUMBER_PATTERN } from '@shared/billing';
import type { BillingDocumentRow } from '../../platform/db/schema';
import { OBJECT_ID_PATTERN } from '@shared/submissions';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { apiError } from '../../platform/errors';
import { requireUser, userOf } from '../../platform/sessions';
import { findBillingDocument, findBillingDocumentByNumber, listBilling } from './billing';
import { renderBillingDocument } from '../../domain/billing/render-document';
import { attachment } from '../../platform/content-disposition';

type WithId = { Params: { id: string } };

/**
 * CONTRACT §19, §21: the billing page's list, each submission's invoice and credit note as PDF,
 * and every document by its number (which outlives the submission).
 */
export async function billingRoutes(app: FastifyInstance, { db, config }: { db: Db; config: Config }) {
  app.addHook('onRequest', requireUser);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  const sendPdf = async (reply: FastifyReply, document: BillingDocumentRow) =>
    reply
      .type('application/pdf')
      .header('content-disposition', attachment(`${document.number}.pdf`))
      .send(await renderBillingDocument(document, config.billing));

  app.get('/api/billing', async (request) => listBilling(db, userOf(request).id));

  app.get<{ Params: { number: string } }>('/api/billing/documents/:number.pdf', async (request, reply) => {
    const { number } = request.params;
    if (!DOCUMENT_NUMBER_PATTERN.test(number)) throw apiError('document_not_found', 'Document not found');
    return sendPdf(reply, await findBillingDocumentByNumber(db, userOf(request), number));
  });

  for (const kind of BILLING_DOCUMENT_KINDS) {
    app.get<WithId>(`/api/submissions/:id/${BILLING_DOCUMENT_FILE[kind]}`, async (request, reply) => {
      const submissionId = request.params.id;
      if (!OBJECT_ID_PATTERN.test(submissionId)) throw apiError('submission_not_found');
      return sendPdf(reply, await findBillingDocument(db, userOf(request), submissionId, kind));
    });
  }
}

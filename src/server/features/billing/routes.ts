import type { FastifyInstance } from 'fastify';
import { BILLING_DOCUMENT_KINDS, BILLING_DOCUMENT_FILE } from '@shared/billing';
import { OBJECT_ID_PATTERN } from '@shared/submissions';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { apiError } from '../../platform/errors';
import { requireUser, userOf } from '../../platform/sessions';
import { findBillingDocument, listBilling } from './billing';
import { renderBillingDocument } from '../../domain/billing/render-document';

type WithId = { Params: { id: string } };

/** CONTRACT §19: the billing page's list, and each submission's invoice and credit note as PDF. */
export async function billingRoutes(app: FastifyInstance, { db, config }: { db: Db; config: Config }) {
  app.addHook('onRequest', requireUser);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get('/api/billing', async (request) => listBilling(db, userOf(request).id));

  for (const kind of BILLING_DOCUMENT_KINDS) {
    app.get<WithId>(`/api/submissions/:id/${BILLING_DOCUMENT_FILE[kind]}`, async (request, reply) => {
      const submissionId = request.params.id;
      if (!OBJECT_ID_PATTERN.test(submissionId)) throw apiError('submission_not_found');
      const document = await findBillingDocument(db, userOf(request), submissionId, kind);
      const pdf = await renderBillingDocument(document, config.billing);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${document.number}.pdf"`)
        .send(pdf);
    });
  }
}

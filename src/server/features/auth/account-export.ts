import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { and, asc, eq, getTableColumns, inArray, isNotNull, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { viewsNeeded } from '@shared/production';
import { isPaidTier } from '@shared/submissions';
import { fileNameWithExtension } from '@shared/downloads';
import type { PayoutAccountStatus } from '@shared/payouts';
import type { Db } from '../../platform/db/client';
import {
  billingDocuments,
  bonusClawbacks,
  bonusEarnings,
  deliveries,
  deliveryComments,
  deliveryFiles,
  agreementSignatures,
  agreements,
  messageAttachments,
  messages,
  payees,
  payoutAccounts,
  publications,
  revisionRequests,
  submissionHistory,
  submissionVersions,
  submissions,
  termsTexts,
  trackComments,
  uploads,
  users,
  viewReadings,
  type BillingDocumentRow,
  type UserRow,
} from '../../platform/db/schema';
import { getNotificationSettings } from '../../platform/email/notification-settings';
import { toPublicUser } from '../../platform/public-user';
import { ObjectNotFoundError, objectKey, type ObjectStorage } from '../../platform/storage/object-storage';
import type { BillingSeller } from '@shared/billing';
import { renderBillingDocument } from '../../domain/billing/render-document';
import { existingArtistPayee, statementLines, statementYears, taxFormOf, taxFormSummary } from '../../domain/bonus/payees';
import { printable, renderStatementPdf, renderTaxFormPdf } from '../../domain/bonus/tax-papers-pdf';
import { renderAgreementPdf } from '../../domain/submission/agreement-pdf';
import { agreementStatusOf } from '../../domain/submission/agreement';
import { ownersOf } from '@shared/rights';
import { commentAuthorColumns, toDeliveryComment } from '../../domain/production/to-delivery-comment';

/** Every column but the team's internal notes, which never leave the server for an artist. */
const { adminNotes: _adminNotes, ...artistColumns } = getTableColumns(submissions);

/** History the artist is shown: status, payment, review, their owners and signatures; never the team's notes, assignee or tags. */
const ARTIST_VISIBLE_HISTORY = ['status', 'payment_status', 'review', 'owners', 'agreement', 'version'] as const;

/**
 * `account.json`: everything the artist can see about themselves (CONTRACT §11), gathered in a
 * few queries. It holds rows, never file bytes, so it stays small whatever the files weigh; the
 * billing documents' records come back beside it, for their PDFs to be drawn one at a time.
 */
async function accountDocument(db: Db, user: UserRow) {
  const own = await db.select(artistColumns).from(submissions).where(eq(submissions.userId, user.id)).orderBy(asc(submissions.createdAt));
  const ids = own.map((s) => s.id);
  const hashes = [...new Set(own.flatMap((s) => (s.termsHash ? [s.termsHash] : [])))];
  // The messages the artist's /messages shows them: sent, received, and their conversation with the team (CONTRACT §18).
  const inConversation = or(eq(messages.fromUserId, user.id), eq(messages.toUserId, user.id), eq(messages.artistId, user.id));
  const [history, comments, conversation, attachments, files, notificationSettings, production, billing, payoutAccount, ownAgreements, signatures] = await Promise.all([
    ids.length
      ? db
          .select({
            submissionId: submissionHistory.submissionId,
            field: submissionHistory.field,
            fromValue: submissionHistory.fromValue,
            toValue: submissionHistory.toValue,
            createdAt: submissionHistory.createdAt,
          })
          .from(submissionHistory)
          .where(and(inArray(submissionHistory.submissionId, ids), inArray(submissionHistory.field, [...ARTIST_VISIBLE_HISTORY])))
          .orderBy(asc(submissionHistory.createdAt))
      : [],
    ids.length
      ? db
          .select({ submissionId: trackComments.submissionId, round: trackComments.round, atSeconds: trackComments.atSeconds, text: trackComments.text, createdAt: trackComments.createdAt })
          .from(trackComments)
          .where(and(inArray(trackComments.submissionId, ids), eq(trackComments.visibleToArtist, true)))
          .orderBy(asc(trackComments.createdAt))
      : [],
    db.select().from(messages).where(inConversation).orderBy(asc(messages.createdAt), asc(messages.id)),
    db
      .select({ messageId: messageAttachments.messageId, id: uploads.id, fileName: uploads.fileName, contentType: uploads.contentType, size: uploads.size })
      .from(messageAttachments)
      .innerJoin(messages, eq(messages.id, messageAttachments.messageId))
      .innerJoin(uploads, eq(uploads.id, messageAttachments.uploadId))
      .where(inConversation)
      .orderBy(asc(messageAttachments.messageId), asc(messageAttachments.position)),
    exportableFiles(db, user.id),
    getNotificationSettings(db, user.id),
    productionRecords(db, user.id, own, hashes),
    // The artist's invoices and credit notes (CONTRACT §19), as they were issued: those /settings/billing
    // lists, and those of a submission deleted since, which the label keeps as accounting records.
    db.select().from(billingDocuments).where(eq(billingDocuments.userId, user.id)).orderBy(asc(billingDocuments.issuedAt), asc(billingDocuments.number)),
    db.select({ status: payoutAccounts.status, createdAt: payoutAccounts.createdAt }).from(payoutAccounts).where(eq(payoutAccounts.userId, user.id)),
    // CONTRACT §22: each licence agreement as stored, and its signatures.
    ids.length ? db.select().from(agreements).where(inArray(agreements.submissionId, ids)).orderBy(asc(agreements.createdAt)) : [],
    ids.length
      ? db.select().from(agreementSignatures).where(inArray(agreementSignatures.submissionId, ids)).orderBy(asc(agreementSignatures.submissionId), asc(agreementSignatures.ownerIndex))
      : [],
  ]);
  // CONTRACT §27: every version of each submission's music (or video); an uploaded version's file is
  // among the files (the earlier versions' uploads stay attached), named at `path` in the ZIP.
  const versions = ids.length
    ? await db
        .select({
          submissionId: submissionVersions.submissionId,
          round: submissionVersions.round,
          createdAt: submissionVersions.createdAt,
          note: submissionVersions.note,
          fileName: submissionVersions.fileName,
          url: submissionVersions.url,
          uploadId: submissionVersions.uploadId,
        })
        .from(submissionVersions)
        .where(inArray(submissionVersions.submissionId, ids))
        .orderBy(asc(submissionVersions.submissionId), asc(submissionVersions.round))
    : [];
  const signaturesOf = (submissionId: string) => signatures.filter((sig) => sig.submissionId === submissionId);
  const agreementDocuments = ownAgreements.map((agreement) => ({
    agreement,
    signatures: signaturesOf(agreement.submissionId),
    songTitle: own.find((s) => s.id === agreement.submissionId)?.songTitle ?? '',
  }));
  const inZip = new Set(files.map((f) => f.id));
  const account = {
    exportedAt: new Date().toISOString(),
    user: toPublicUser(user),
    notificationSettings,
    submissions: own,
    statusHistory: history,
    comments,
    versions: versions.map(({ uploadId, ...version }) => {
      const file = uploadId ? files.find((f) => f.id === uploadId) : undefined;
      return { ...version, path: file ? fileEntryName(file) : null };
    }),
    // Each message with its files; a file the artist may fetch is in the ZIP at `path`.
    messages: conversation.map((m) => ({
      ...m,
      direction: m.fromUserId === user.id ? 'sent' : 'received',
      attachments: attachments
        .filter((a) => a.messageId === m.id)
        .map(({ messageId: _, ...file }) => ({ ...file, path: inZip.has(file.id) ? fileEntryName(file) : null })),
    })),
    payments: own
      .filter((s) => isPaidTier(s.pricingTier))
      .map((s) => ({
        submissionId: s.id,
        songTitle: s.songTitle,
        pricingTier: s.pricingTier,
        amount: s.amount,
        paymentStatus: s.paymentStatus,
        stripePaymentIntentId: s.stripePaymentIntentId,
      })),
    files: files.map((f) => ({ ...f, path: fileEntryName(f) })),
    ...production,
    billingDocuments: billing.map((d) => ({
      number: d.number,
      kind: d.kind,
      issuedAt: d.issuedAt,
      submissionId: d.submissionId,
      songTitle: d.songTitle,
      pricingTier: d.pricingTier,
      amount: (d.amountCents / 100).toFixed(2),
      currency: d.currency,
      stripePaymentIntentId: d.stripePaymentIntentId,
      cancelsInvoice: d.invoiceNumber,
      buyer: { name: d.buyerName, email: d.buyerEmail, country: d.buyerCountry },
      path: documentEntryName(d),
    })),
    // CONTRACT §22: each submission's owners (the artist alone at 100% unless set), and each
    // agreement's text, hash and signatures, its PDF at `path`.
    owners: own.map((s) => ({ submissionId: s.id, owners: ownersOf(s) })),
    agreements: agreementDocuments.map(({ agreement, signatures: signed }) => ({
      submissionId: agreement.submissionId,
      version: agreement.version,
      status: agreementStatusOf(signed),
      sha256: agreement.sha256,
      text: agreement.text,
      createdAt: agreement.createdAt,
      signatures: signed.map((sig) => ({
        ownerName: sig.ownerName,
        role: sig.role,
        share: Number(sig.share),
        signedName: sig.signedName,
        signedAt: sig.signedAt,
        onBehalf: sig.onBehalf,
        ip: sig.ip,
        userAgent: sig.userAgent,
        sha256: sig.sha256,
      })),
      path: agreementEntryName(agreement.submissionId),
    })),
    // The Stripe account bonuses are paid into, as /settings/billing shows it; each earning's transfer is in bonusEarnings.
    payoutAccount: { status: (payoutAccount[0]?.status ?? 'none') satisfies PayoutAccountStatus, createdAt: payoutAccount[0]?.createdAt ?? null },
    // Each submission's licence: the Terms version and the hash of the exact text accepted, the
    // text itself once per version below.
    licences: own.flatMap((s) =>
      s.termsHash && s.termsAcceptedAt
        ? [{ submissionId: s.id, termsVersion: production.termsTexts.find((t) => t.hash === s.termsHash)?.version ?? null, termsHash: s.termsHash, acceptedAt: s.termsAcceptedAt }]
        : [],
    ),
  };
  // Tax papers (CONTRACT §24): the form on file with its TIN as its last four only, and each
  // year's statement (its PDF beside account.json). The sealed TIN is never read here.
  const payee = await existingArtistPayee(db, user.id);
  const taxForm = payee ? await taxFormOf(db, payee.id) : undefined;
  const statementList = payee ? await statementYears(db, payee.id) : [];
  const taxPapers = {
    taxForm: taxForm ? { ...taxFormSummary(taxForm), address: taxForm.address, signedName: taxForm.signedName, path: TAX_FORM_ENTRY } : null,
    statements: statementList.map((s) => ({ ...s, path: statementEntryName(s.year) })),
  };
  return { account: { ...account, taxPapers }, billing, agreementDocuments, taxPaperDocuments: { payee, taxForm, years: statementList.map((s) => s.year) } };
}

const TAX_FORM_ENTRY = 'tax-papers/tax-form.pdf';
const statementEntryName = (year: number) => `tax-papers/bonus-statement-${year}.pdf`;

/**
 * What comes after approval, as the artist sees it in a submission's details and on the bonus
 * card (CONTRACT §13, §17): each delivered version and its files (listed; the files are the
 * label's work and are downloaded from the details) with the whole comment thread of both sides
 * and the artist's approval of the cut, revision requests, publications with every view reading,
 * bonus earnings, and the Terms texts the submissions were accepted under.
 */
async function productionRecords(
  db: Db,
  userId: string,
  own: { id: string; approvedDeliveryId: string | null; cutApprovedAt: Date | null }[],
  hashes: string[],
) {
  const none = Promise.resolve([]);
  const ids = own.map((s) => s.id);
  const [delivered, comments, revisions, published, readings, earnings, terms, clawbacks] = await Promise.all([
    ids.length
      ? db
          .select({
            id: deliveries.id,
            submissionId: deliveries.submissionId,
            version: deliveries.version,
            note: deliveries.note,
            createdAt: deliveries.createdAt,
            uploadId: deliveryFiles.uploadId,
            fileName: uploads.fileName,
            contentType: uploads.contentType,
            size: uploads.size,
          })
          .from(deliveries)
          .leftJoin(deliveryFiles, eq(deliveryFiles.deliveryId, deliveries.id))
          .leftJoin(uploads, eq(uploads.id, deliveryFiles.uploadId))
          .where(inArray(deliveries.submissionId, ids))
          .orderBy(asc(deliveries.createdAt), asc(deliveries.version), asc(deliveries.id), asc(deliveryFiles.position))
      : none,
    ids.length
      ? db
          .select({ comment: deliveryComments, author: commentAuthorColumns })
          .from(deliveryComments)
          .leftJoin(users, eq(users.id, deliveryComments.authorId))
          .where(inArray(deliveryComments.submissionId, ids))
          .orderBy(asc(deliveryComments.createdAt), asc(deliveryComments.id))
      : none,
    ids.length
      ? db
          .select({ submissionId: revisionRequests.submissionId, number: revisionRequests.number, note: revisionRequests.note, createdAt: revisionRequests.createdAt })
          .from(revisionRequests)
          .where(inArray(revisionRequests.submissionId, ids))
          .orderBy(asc(revisionRequests.submissionId), asc(revisionRequests.number))
      : none,
    ids.length ? db.select().from(publications).where(inArray(publications.submissionId, ids)).orderBy(asc(publications.publishedAt)) : none,
    ids.length
      ? db
          .select({ submissionId: viewReadings.submissionId, views: viewReadings.views, source: viewReadings.source, recordedAt: viewReadings.recordedAt })
          .from(viewReadings)
          .where(inArray(viewReadings.submissionId, ids))
          .orderBy(asc(viewReadings.recordedAt))
      : none,
    db
      .select({
        submissionId: bonusEarnings.submissionId,
        amount: bonusEarnings.amount,
        status: bonusEarnings.status,
        createdAt: bonusEarnings.createdAt,
        paidAt: bonusEarnings.paidAt,
        transferId: bonusEarnings.transferId,
        voidReason: bonusEarnings.voidReason,
      })
      .from(bonusEarnings)
      .where(eq(bonusEarnings.userId, userId))
      .orderBy(asc(bonusEarnings.createdAt)),
    hashes.length
      ? db.select({ version: termsTexts.version, hash: termsTexts.hash, text: termsTexts.text }).from(termsTexts).where(inArray(termsTexts.hash, hashes))
      : none,
    // CONTRACT §25: paid bonus taken back, and which payout deducted it.
    db
      .select({
        submissionId: bonusClawbacks.submissionId,
        amountCents: bonusClawbacks.amountCents,
        reason: bonusClawbacks.reason,
        createdAt: bonusClawbacks.createdAt,
        deductedAt: bonusClawbacks.deductedAt,
        deductedFrom: bonusClawbacks.deductedFrom,
      })
      .from(bonusClawbacks)
      .innerJoin(payees, eq(payees.id, bonusClawbacks.payeeId))
      .where(eq(payees.userId, userId))
      .orderBy(asc(bonusClawbacks.createdAt)),
  ]);

  // As the comment thread shows them to the artist: the team member by name, never by account id.
  const threads = comments.map((row) => {
    const { deliveryId, author, ...comment } = toDeliveryComment(row.comment, row.author);
    return { deliveryId, ...comment, author: { name: author.name, role: author.role } };
  });
  type DeliveryRecord = {
    id: string;
    submissionId: string;
    version: number;
    note: string | null;
    createdAt: Date;
    cutApprovedAt: Date | null;
    files: { id: string; fileName: string | null; contentType: string | null; size: number | null }[];
    comments: Omit<(typeof threads)[number], 'deliveryId'>[];
  };
  const byDelivery = new Map<string, DeliveryRecord>();
  for (const row of delivered) {
    let delivery = byDelivery.get(row.id);
    if (!delivery) {
      const submission = own.find((s) => s.id === row.submissionId);
      delivery = {
        id: row.id,
        submissionId: row.submissionId,
        version: row.version,
        note: row.note,
        createdAt: row.createdAt,
        cutApprovedAt: submission?.approvedDeliveryId === row.id ? submission.cutApprovedAt : null,
        files: [],
        comments: threads.filter((c) => c.deliveryId === row.id).map(({ deliveryId: _, ...comment }) => comment),
      };
      byDelivery.set(row.id, delivery);
    }
    if (row.uploadId !== null) delivery.files.push({ id: row.uploadId, fileName: row.fileName, contentType: row.contentType, size: row.size });
  }
  return {
    deliveries: [...byDelivery.values()],
    revisionRequests: revisions,
    publications: published.map((p) => ({
      submissionId: p.submissionId,
      videoUrl: p.videoUrl,
      publishedAt: p.publishedAt,
      subscriberCount: p.subscriberCount,
      viewsNeeded: viewsNeeded(p.subscriberCount),
      checkAt: p.checkAt,
      checkedAt: p.checkedAt,
      checkLateSeconds: p.checkLateSeconds,
      viewsAt14Days: p.viewsAt14Days,
      viralHit: p.viralHit,
      // CONTRACT §25, as the artist's bonus card shows it: the screen's state, a rejection's reason, a withdrawn hit.
      viralScreen: p.screenStatus,
      viralScreenRejectionReason: p.screenStatus === 'rejected' ? p.reviewReason : null,
      hitWithdrawnAt: p.hitWithdrawnAt,
      hitWithdrawnReason: p.hitWithdrawnReason,
      readings: readings.filter((r) => r.submissionId === p.submissionId).map(({ submissionId: _, ...reading }) => reading),
    })),
    bonusEarnings: earnings,
    bonusClawbacks: clawbacks,
    termsTexts: terms,
  };
}

/**
 * The checked, stored files the artist may fetch: their own uploads, and what the team attached
 * to messages in their conversation (CONTRACT §18, as GET /objects/uploads/{id} allows).
 */
function exportableFiles(db: Db, userId: string) {
  const attachedForArtist = db
    .select({ id: messageAttachments.uploadId })
    .from(messageAttachments)
    .innerJoin(messages, eq(messages.id, messageAttachments.messageId))
    .where(eq(messages.artistId, userId));
  return db
    .select({ id: uploads.id, fileName: uploads.fileName, contentType: uploads.contentType, size: uploads.size, submissionId: uploads.submissionId })
    .from(uploads)
    .where(and(or(eq(uploads.userId, userId), inArray(uploads.id, attachedForArtist)), eq(uploads.status, 'stored'), isNotNull(uploads.contentType)))
    .orderBy(asc(uploads.createdAt), asc(uploads.id));
}

/** A name inside the ZIP that no file name can turn into a path outside `files/`. */
function fileEntryName(file: { id: string; fileName: string | null; contentType: string | null }): string {
  const safe = fileNameWithExtension(file.fileName, file.contentType).replace(/[^\w.\- ]+/g, '_').replace(/^\.+/, '').slice(0, 100) || 'file';
  return `files/${file.id}-${safe}`;
}

/** An agreement's PDF inside the ZIP, by its submission's id (made by the server). */
const agreementEntryName = (submissionId: string) => `agreements/${submissionId}.pdf`;

/** An invoice's or credit note's PDF inside the ZIP: its number, which is made of letters, digits and dashes. */
function documentEntryName(document: Pick<BillingDocumentRow, 'number'>): string {
  return `invoices/${document.number.replace(/[^\w-]+/g, '_')}.pdf`;
}

/**
 * GET /api/account/export: a ZIP written as it is read. Files are added one at a time, each
 * opened only when the one before has gone into the archive, and the archive is a stream the
 * response pulls with backpressure: memory stays flat whatever the files weigh
 * (bench/account-export.bench.ts). Media are stored as they are (already compressed). Each
 * invoice and credit note is drawn by the billing routes' renderer, one at a time, from `seller`.
 */
export function streamAccountExport(db: Db, storage: ObjectStorage, user: UserRow, seller: BillingSeller, log: FastifyBaseLogger): NodeJS.ReadableStream {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const stopped = new AbortController();
  let reading: Readable | undefined;
  // The download was cancelled or failed: stop, and let go of the file being read.
  const stop = () => {
    stopped.abort();
    reading?.destroy();
  };
  archive.on('close', stop);
  archive.on('error', (error: Error) => {
    log.error({ err: error }, 'the account export stopped halfway');
    stop();
  });

  void (async () => {
    const { account, billing, agreementDocuments, taxPaperDocuments } = await accountDocument(db, user);
    for (const file of account.files) {
      if (stopped.signal.aborted) return;
      try {
        reading = await storage.read(objectKey('uploads', file.id));
      } catch (error) {
        if (!(error instanceof ObjectNotFoundError)) throw error;
        log.warn({ uploadId: file.id }, 'a file of the account export is missing from the store');
        continue;
      }
      const added = once(archive, 'entry', { signal: stopped.signal });
      archive.append(reading, { name: file.path, store: true });
      await added;
    }
    for (const document of billing) {
      if (stopped.signal.aborted) return;
      const added = once(archive, 'entry', { signal: stopped.signal });
      archive.append(await renderBillingDocument(document, seller), { name: documentEntryName(document) });
      await added;
    }
    for (const { agreement, signatures, songTitle } of agreementDocuments) {
      if (stopped.signal.aborted) return;
      const added = once(archive, 'entry', { signal: stopped.signal });
      archive.append(await renderAgreementPdf(agreement, signatures, songTitle, seller.legalName), { name: agreementEntryName(agreement.submissionId) });
      await added;
    }
    const { payee, taxForm, years } = taxPaperDocuments;
    if (taxForm) archive.append(await renderTaxFormPdf(printable(taxForm), user.email), { name: TAX_FORM_ENTRY });
    for (const year of payee ? years : []) {
      if (stopped.signal.aborted) return;
      const lines = await statementLines(db, payee!.id, year);
      archive.append(await renderStatementPdf({ year, payeeName: payee!.name, form: taxForm && printable(taxForm), lines, seller }), { name: statementEntryName(year) });
    }
    archive.append(JSON.stringify(account, null, 2), { name: 'account.json' });
    await archive.finalize();
  })().catch((error: unknown) => {
    if (stopped.signal.aborted) return;
    log.error({ err: error }, 'the account export stopped halfway');
    archive.abort();
  });
  return archive;
}

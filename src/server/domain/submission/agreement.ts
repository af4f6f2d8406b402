import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { PRODUCT_NAME } from '@shared/brand';
import { ESIGN_DISCLOSURE, awaitsArtistHand, esignDisclosure, ownersOf, type Agreement, type AgreementStatus, type Owner, type SigningLinkView } from '@shared/rights';
import { isPublishable } from '@shared/submissions';
import type { Db, Tx } from '../../platform/db/client';
import {
  agreementSignatures,
  agreements,
  submissions,
  users,
  type AgreementRow,
  type AgreementSignatureRow,
  type SubmissionRow,
} from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { announceUserReadsChange } from '../../platform/user-reads';
import type { EmailQueue } from '../email/email-kinds';
import { hashToken } from '../email/emailed-links';
import { renderAgreementPdf } from './agreement-pdf';
import { agreementText } from './agreement-text';
import { recordArtistActivity } from './artist-activity';
import { recordHistory } from './history';
import { lockOwnSubmission } from './lock-own-submission';
import { announceSubmissionChange } from './transition';
import { queueWebhookEvent } from '../webhook/queue-webhook-event';

/** Where a signature came from, as the request showed it. */
export interface SignatureOrigin {
  ip: string;
  userAgent: string | null;
  now: Date;
}

type AgreementSubmission = Pick<SubmissionRow, 'id' | 'userId' | 'status' | 'songTitle' | 'artistName' | 'isrc' | 'aiUsage' | 'owners'>;

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** unsigned, partly_signed or signed, from the signatures' rows. */
export function agreementStatusOf(signatures: Pick<AgreementSignatureRow, 'signedAt'>[]): AgreementStatus {
  const signed = signatures.filter((s) => s.signedAt !== null).length;
  if (signed === 0) return 'unsigned';
  return signed === signatures.length ? 'signed' : 'partly_signed';
}

/**
 * Who signs a submission's agreement, in order: its owners, the artist first and without an
 * address (they sign in the product; decision 178).
 */
const signersOf = (submission: Pick<SubmissionRow, 'owners' | 'artistName'>): Owner[] =>
  ownersOf(submission).map((owner, index) => (index === 0 ? { ...owner, email: null } : owner));

/**
 * For the dashboard's list (GET /api/submissions): which of `rows` have an agreement that waits for
 * the artist's hand (`awaitsArtistHand`), read in one query for the page. An approved submission
 * whose agreement was never read yet has none: it is made unsigned from its owners on the first
 * read (`lockAgreement`), so it waits for the artist as that one would.
 */
export async function agreementsAwaitingArtist(db: Db | Tx, rows: readonly Pick<SubmissionRow, 'id' | 'status' | 'owners' | 'artistName'>[]): Promise<Set<string>> {
  const approved = rows.filter((row) => isPublishable(row.status));
  if (approved.length === 0) return new Set();
  const signed = await db
    .select({ submissionId: agreementSignatures.submissionId, ownerEmail: agreementSignatures.ownerEmail, signedAt: agreementSignatures.signedAt })
    .from(agreementSignatures)
    .where(inArray(agreementSignatures.submissionId, approved.map((row) => row.id)))
    .orderBy(asc(agreementSignatures.submissionId), asc(agreementSignatures.ownerIndex));
  const made = new Map<string, { hasEmail: boolean; signedAt: Date | null }[]>();
  for (const { submissionId, ownerEmail, signedAt } of signed) {
    const lines = made.get(submissionId) ?? [];
    lines.push({ hasEmail: ownerEmail !== null, signedAt });
    made.set(submissionId, lines);
  }
  const unsigned = (row: Pick<SubmissionRow, 'owners' | 'artistName'>) => signersOf(row).map((owner) => ({ hasEmail: owner.email !== null, signedAt: null }));
  return new Set(approved.filter((row) => awaitsArtistHand(made.get(row.id) ?? unsigned(row))).map((row) => row.id));
}

export function toAgreement(agreement: AgreementRow, signatures: AgreementSignatureRow[], songTitle: string, labelName: string | undefined): Agreement {
  return {
    status: agreementStatusOf(signatures),
    version: agreement.version,
    sha256: agreement.sha256,
    text: agreement.text,
    songTitle,
    labelName: labelName ?? PRODUCT_NAME,
    disclosure: esignDisclosure(),
    signatures: signatures.map((s) => ({
      name: s.ownerName,
      role: s.role,
      share: Number(s.share),
      hasEmail: s.ownerEmail !== null,
      signedAt: s.signedAt?.toISOString() ?? null,
      onBehalf: s.onBehalf,
    })),
  };
}

export async function signaturesOf(tx: Tx | Db, submissionId: string): Promise<AgreementSignatureRow[]> {
  return tx.select().from(agreementSignatures).where(eq(agreementSignatures.submissionId, submissionId)).orderBy(asc(agreementSignatures.ownerIndex));
}

/**
 * The submission's agreement, locked FOR UPDATE in `tx`, made now if it does not exist yet
 * (CONTRACT §22: from approval on). It is made once, from the owners and facts as they stand, and
 * never rewritten: the owners are frozen from approval on, and the text is what each owner signs
 * (decision 178). Two first reads at once make it once (the second insert waits, then finds it).
 */
export async function lockAgreement(
  tx: Tx,
  submission: AgreementSubmission,
  labelName: string | undefined,
  now: Date,
): Promise<{ agreement: AgreementRow; signatures: AgreementSignatureRow[] }> {
  if (!isPublishable(submission.status)) throw apiError('agreement_not_ready');
  const text = agreementText({
    submissionId: submission.id,
    songTitle: submission.songTitle,
    artistName: submission.artistName,
    isrc: submission.isrc,
    aiUsage: submission.aiUsage,
    owners: ownersOf(submission),
    labelName,
    date: now,
  });
  const made = await tx
    .insert(agreements)
    .values({ submissionId: submission.id, text, sha256: sha256Hex(text), createdAt: now })
    .onConflictDoNothing()
    .returning({ submissionId: agreements.submissionId });
  if (made.length > 0) {
    await tx.insert(agreementSignatures).values(
      signersOf(submission).map((owner, index) => ({
        id: newId(),
        submissionId: submission.id,
        ownerIndex: index,
        ownerName: owner.name,
        ownerEmail: owner.email,
        role: owner.role,
        share: owner.share.toFixed(2),
      })),
    );
  }
  const [agreement] = await tx.select().from(agreements).where(eq(agreements.submissionId, submission.id)).for('update');
  return { agreement: agreement!, signatures: await signaturesOf(tx, submission.id) };
}

/** GET /api/submissions/{id}/agreement: for the owner and admins (the caller has checked who may see it). */
export async function readAgreement(db: Db, submission: AgreementSubmission, labelName: string | undefined, now: Date): Promise<Agreement> {
  return db.transaction(async (tx) => {
    const { agreement, signatures } = await lockAgreement(tx, submission, labelName, now);
    return toAgreement(agreement, signatures, submission.songTitle, labelName);
  });
}

interface SignatureWrite {
  typedName: string;
  by: string | null;
  onBehalf: boolean;
  origin: SignatureOrigin;
}

/**
 * Records one owner's signature on the locked agreement, its history row, the team's email
 * (signature received, or all signed when it was the last) and the live change. The agreement row
 * is locked by the caller, so two owners signing at once are recorded one after the other and the
 * second sees the first: "all signed" is sent once.
 */
async function recordSignatures(
  tx: Tx,
  outbox: EmailQueue,
  submission: AgreementSubmission,
  agreement: AgreementRow,
  signing: AgreementSignatureRow[],
  write: SignatureWrite,
): Promise<AgreementSignatureRow[]> {
  for (const target of signing) {
    await tx
      .update(agreementSignatures)
      .set({
        signedName: write.typedName,
        signedAt: write.origin.now,
        signedBy: write.by,
        onBehalf: write.onBehalf,
        ip: write.origin.ip,
        userAgent: write.origin.userAgent?.slice(0, 1000) ?? null,
        sha256: agreement.sha256,
        // The signer was shown the disclosure in force: the agreement is served with it, and a
        // signer who names another version is refused before this (decision 189).
        disclosureVersion: ESIGN_DISCLOSURE.version,
        tokenUsedAt: target.tokenHash ? write.origin.now : null,
      })
      .where(eq(agreementSignatures.id, target.id));
    await recordHistory(tx, submission.id, {
      kind: 'agreement',
      by: write.by,
      to: write.onBehalf ? `${target.ownerName} (signed on their behalf as ${write.typedName})` : `${target.ownerName} signed as ${write.typedName}`,
      at: write.origin.now,
    });
  }
  const signatures = await signaturesOf(tx, submission.id);
  const signedCount = signatures.filter((s) => s.signedAt !== null).length;
  // One event per signature, in the same transaction (CONTRACT §28).
  for (const target of signing) {
    await queueWebhookEvent(
      tx,
      'agreement.signed',
      {
        submissionId: submission.id,
        songTitle: submission.songTitle,
        ownerName: target.ownerName,
        role: target.role,
        share: Number(target.share),
        onBehalf: write.onBehalf,
        signedAt: write.origin.now.toISOString(),
        agreementSha256: agreement.sha256,
        status: agreementStatusOf(signatures),
      },
      write.origin.now,
    );
  }
  const last = signing[signing.length - 1]!;
  const team = await tx.select({ id: users.id }).from(users).where(and(eq(users.role, 'admin'), isNull(users.deletedAt)));
  const all = signedCount === signatures.length;
  const data = {
    submissionId: submission.id,
    songTitle: submission.songTitle,
    artistName: submission.artistName,
    signerName: signing.length === 1 ? last.ownerName : signing.map((s) => s.ownerName).join(', '),
    onBehalf: write.onBehalf,
    signedCount,
    ownerCount: signatures.length,
  };
  await outbox.queueMany(
    tx,
    team.map((admin) => ({ kind: all ? ('agreement_signed' as const) : ('agreement_signature_received' as const), userId: admin.id, data })),
  );
  await announceSubmissionChange(tx, submission.userId, { submissionId: submission.id, status: submission.status });
  // The dashboard's list says whether the agreement waits for the artist: every instance forgets it.
  await announceUserReadsChange(tx, submission.userId);
  // The team hears it live too, as a badge on the desk row and in the header (issue 33 part 4).
  await recordArtistActivity(tx, { submissionId: submission.id, songTitle: submission.songTitle, kind: 'agreement_signed', at: write.origin.now });
  return signatures;
}

/**
 * POST /api/submissions/{id}/agreement/sign: the artist signs for themselves (the first owner), or
 * with `onBehalf` for the owners without an email (one, or all of them still unsigned). Their own
 * signature sends each co-owner with an email their signing link, through the outbox.
 */
export async function signAsArtist(
  db: Db,
  outbox: EmailQueue,
  userId: string,
  submissionId: string,
  input: { name: string; onBehalf?: boolean | undefined; owner?: number | undefined; disclosureVersion?: number | undefined },
  labelName: string | undefined,
  origin: SignatureOrigin,
): Promise<Agreement> {
  requireDisclosureShown(input.disclosureVersion);
  return db.transaction(async (tx) => {
    const submission = await lockOwnSubmission(tx, userId, submissionId);
    const { agreement, signatures } = await lockAgreement(tx, submission, labelName, origin.now);
    let signing: AgreementSignatureRow[];
    if (input.onBehalf) {
      const withoutEmail = signatures.filter((s) => s.ownerIndex > 0 && s.ownerEmail === null);
      signing = (input.owner === undefined ? withoutEmail : withoutEmail.filter((s) => s.ownerIndex === input.owner)).filter((s) => s.signedAt === null);
      if (signing.length === 0) {
        throw apiError('nothing_to_sign', 'No owner without an email is left to sign for: each owner with an email signs through their own link');
      }
    } else {
      const own = signatures.find((s) => s.ownerIndex === 0)!;
      if (own.signedAt !== null) throw apiError('already_signed');
      signing = [own];
    }
    const after = await recordSignatures(tx, outbox, submission, agreement, signing, { typedName: input.name, by: userId, onBehalf: input.onBehalf === true, origin });
    if (!input.onBehalf) {
      const invited = after.filter((s) => s.ownerIndex > 0 && s.ownerEmail !== null && s.signedAt === null);
      for (const owner of invited) {
        await outbox.queue(tx, {
          kind: 'signing_invitation',
          // The outbox files every email under an account: the inviting artist's; it goes to the owner's address.
          userId,
          toAddress: owner.ownerEmail!,
          data: { signatureId: owner.id, ownerName: owner.ownerName, songTitle: submission.songTitle, artistName: submission.artistName },
        });
      }
    }
    return toAgreement(agreement, after, submission.songTitle, labelName);
  });
}

/** A signer who names the disclosure they were shown must have been shown the one in force. */
function requireDisclosureShown(version: number | undefined) {
  if (version !== undefined && version !== ESIGN_DISCLOSURE.version) throw apiError('disclosure_changed');
}

/** The signature a link's token names, with its agreement; 404 unknown, 410 used or expired. */
async function signatureOfToken(tx: Tx | Db, token: string, now: Date): Promise<AgreementSignatureRow> {
  const [signature] = await tx.select().from(agreementSignatures).where(eq(agreementSignatures.tokenHash, hashToken(token))).limit(1);
  if (!signature) throw apiError('signing_link_not_found');
  if (signature.signedAt !== null || signature.tokenUsedAt !== null || !signature.tokenExpiresAt || signature.tokenExpiresAt <= now) {
    throw apiError('signing_link_gone');
  }
  return signature;
}

async function submissionOf(tx: Tx | Db, id: string) {
  const [submission] = await tx.select().from(submissions).where(eq(submissions.id, id)).limit(1);
  if (!submission) throw apiError('signing_link_not_found');
  return submission;
}

/** GET /api/sign/{token}: the agreement as its owner reads it before signing, without an account. */
export async function viewByLink(db: Db, token: string, labelName: string | undefined, now: Date): Promise<SigningLinkView> {
  const signature = await signatureOfToken(db, token, now);
  const submission = await submissionOf(db, signature.submissionId);
  const [agreement] = await db.select().from(agreements).where(eq(agreements.submissionId, signature.submissionId));
  const view = toAgreement(agreement!, await signaturesOf(db, signature.submissionId), submission.songTitle, labelName);
  return { ...view, owner: { name: signature.ownerName, role: signature.role, share: Number(signature.share) } };
}

/**
 * POST /api/sign/{token}: the owner signs; the link is used up (a second use, or an expired one,
 * → 410). The owner keeps a copy (CONTRACT §22): an email with the agreement PDF as signed so far,
 * and for SIGNED_COPY_TTL_MS the thank-you page's download (`signedCopyByLink`).
 */
export async function signByLink(
  db: Db,
  outbox: EmailQueue,
  token: string,
  input: { name: string; disclosureVersion?: number | undefined },
  labelName: string | undefined,
  origin: SignatureOrigin,
): Promise<SigningLinkView> {
  requireDisclosureShown(input.disclosureVersion);
  return db.transaction(async (tx) => {
    const found = await signatureOfToken(tx, token, origin.now);
    const submission = await submissionOf(tx, found.submissionId);
    const [agreement] = await tx.select().from(agreements).where(eq(agreements.submissionId, found.submissionId)).for('update');
    // Read again under the agreement's lock: the same link used twice at once signs once.
    const signature = await signatureOfToken(tx, token, origin.now);
    const after = await recordSignatures(tx, outbox, submission, agreement!, [signature], { typedName: input.name, by: null, onBehalf: false, origin });
    await outbox.queue(tx, {
      kind: 'agreement_copy',
      // Filed under the artist's account like the invitation; it goes to the owner's address.
      userId: submission.userId,
      toAddress: signature.ownerEmail!,
      data: { signatureId: signature.id, ownerName: signature.ownerName, songTitle: submission.songTitle, artistName: submission.artistName },
    });
    return { ...toAgreement(agreement!, after, submission.songTitle, labelName), owner: { name: signature.ownerName, role: signature.role, share: Number(signature.share) } };
  });
}

/**
 * PUT /api/submissions/{id}/owners: the artist changes the split sheet until approval (then 409).
 * Recorded in the history. A submission the team moved back from approval before anyone signed
 * loses its unsigned agreement, which is made again from the new owners at the next approval.
 */
export async function changeOwners(db: Db, userId: string, submissionId: string, owners: Owner[], now: Date): Promise<SubmissionRow> {
  return db.transaction(async (tx) => {
    const submission = await lockOwnSubmission(tx, userId, submissionId);
    if (isPublishable(submission.status)) throw apiError('owners_frozen');
    const signed = (await signaturesOf(tx, submissionId)).some((s) => s.signedAt !== null);
    if (signed) throw apiError('owners_frozen', 'The owners can no longer be changed: an owner has signed the agreement');
    await tx.delete(agreements).where(eq(agreements.submissionId, submissionId));
    const [row] = await tx.update(submissions).set({ owners, updatedAt: now }).where(eq(submissions.id, submissionId)).returning();
    const describe = (list: Owner[]) => list.map((o) => `${o.name} ${o.share}%`).join(', ');
    await recordHistory(tx, submissionId, { kind: 'owners', by: userId, from: describe(ownersOf(submission)), to: describe(owners), at: now });
    return row!;
  });
}

/**
 * How long after signing the thank-you page's download works (decision 189). The copy is emailed
 * too; the download is for the moment of signing. Someone holding the link later (a forwarded or
 * leaked email) gets nothing from it after this: a used link reads 410 and its copy is gone.
 */
export const SIGNED_COPY_TTL_MS = 60 * 60 * 1000;

/**
 * The agreement PDF as it stood when this owner signed: the signatures made after theirs read
 * "not signed yet". Drawn from the stored rows like every agreement PDF, so the email's
 * attachment, a retry of it and the thank-you page's download are the same bytes, and a copy
 * never shows what others did later (their addresses and browsers included).
 */
export async function renderSignedCopy(db: Db | Tx, signature: AgreementSignatureRow, labelName: string | undefined): Promise<{ pdf: Buffer; songTitle: string }> {
  const signedAt = signature.signedAt!;
  const [agreement] = await db.select().from(agreements).where(eq(agreements.submissionId, signature.submissionId));
  const submission = await submissionOf(db, signature.submissionId);
  const asSigned = (await signaturesOf(db, signature.submissionId)).map((s) =>
    s.signedAt !== null && s.signedAt.getTime() <= signedAt.getTime() ? s : { ...s, signedAt: null, signedName: null },
  );
  return { pdf: await renderAgreementPdf(agreement!, asSigned, submission.songTitle, labelName), songTitle: submission.songTitle };
}

/**
 * GET /api/sign/{token}/agreement.pdf: the owner's copy from the thank-you page, with the link
 * they have just used, for SIGNED_COPY_TTL_MS after signing (then 410). A link not used to sign
 * has no copy (404): its agreement is read with GET /api/sign/{token}.
 */
export async function signedCopyByLink(db: Db, token: string, labelName: string | undefined, now: Date): Promise<Buffer> {
  const [signature] = await db.select().from(agreementSignatures).where(eq(agreementSignatures.tokenHash, hashToken(token))).limit(1);
  if (!signature || signature.signedAt === null || signature.tokenUsedAt === null || signature.signedBy !== null) throw apiError('signing_link_not_found');
  if (now.getTime() - signature.signedAt.getTime() > SIGNED_COPY_TTL_MS) throw apiError('signed_copy_gone');
  return (await renderSignedCopy(db, signature, labelName)).pdf;
}

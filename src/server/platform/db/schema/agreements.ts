// Agreements: the terms' texts, the agreements and their signatures (rights, CONTRACT §22). One area of the schema (index.ts, decision 200).
import { boolean, integer, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf } from './columns';
import { users } from './accounts';
import { submissions } from './submissions';
// Relative, not '@shared/…': drizzle-kit loads these files without the tsconfig path aliases.
import { OWNER_ROLES } from '../../../../shared/rights';

/** Every version of the Terms of Service an artist accepted, by the SHA-256 of its exact text. */
export const termsTexts = pgTable('terms_texts', {
  hash: text('hash').primaryKey(),
  version: text('version').notNull(),
  text: text('text').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The licence agreement of an approved submission (CONTRACT §22): its text as generated, and the
 * SHA-256 of that text. Once an owner has signed, neither changes (decision 178).
 */
export const agreements = pgTable('agreements', {
  submissionId: text('submission_id')
    .primaryKey()
    .references(() => submissions.id, { onDelete: 'cascade' }),
  version: integer('version').notNull().default(1),
  text: text('text').notNull(),
  sha256: text('sha256').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One owner's signature of an agreement, made with the agreement: the owner as the text names
 * them, then once signed who typed which name when, from where, on which text (its SHA-256). An
 * owner with an email signs through an emailed link whose token is kept only as its hash.
 */
export const agreementSignatures = pgTable(
  'agreement_signatures',
  {
    id: text('id').primaryKey(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => agreements.submissionId, { onDelete: 'cascade' }),
    ownerIndex: integer('owner_index').notNull(),
    ownerName: text('owner_name').notNull(),
    ownerEmail: text('owner_email'),
    role: text('role', { enum: OWNER_ROLES }).notNull(),
    share: numeric('share', { precision: 5, scale: 2 }).notNull(),
    signedName: text('signed_name'),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    /** The account that signed: the artist (for themselves or on an owner's behalf); null by link. */
    signedBy: text('signed_by').references(() => users.id, { onDelete: 'set null' }),
    onBehalf: boolean('on_behalf').notNull().default(false),
    ip: text('ip'),
    userAgent: text('user_agent'),
    sha256: text('sha256'),
    /**
     * The version of the electronic-records disclosure (ESIGN_DISCLOSURE in shared/rights-texts.ts)
     * shown to the signer before they signed; null for signatures made before it was shown (decision 189).
     */
    disclosureVersion: integer('disclosure_version'),
    tokenHash: text('token_hash'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    tokenUsedAt: timestamp('token_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('agreement_signatures_owner_key').on(t.submissionId, t.ownerIndex),
    uniqueIndex('agreement_signatures_token_key').on(t.tokenHash),
    oneOf('agreement_signatures_role_check', t.role, OWNER_ROLES),
  ],
);

export type AgreementRow = typeof agreements.$inferSelect;

export type AgreementSignatureRow = typeof agreementSignatures.$inferSelect;

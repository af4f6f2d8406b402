import { z } from 'zod';
import { OWNER_NAME_MAX, OWNER_ROLES, OWNERS_MAX, RIGHTS_MESSAGES, isOneLine, type EsignDisclosure, type OwnerRole } from './rights-texts';

/**
 * Rights before release (CONTRACT §22): the song's owners (its split sheet), the licence
 * agreement they sign, Content ID and the publishing gate. One source for every list, limit and
 * text of it; the server and the client both read them here.
 */

export {
  ESIGN_DISCLOSURE,
  OWNER_NAME_MAX,
  OWNER_ROLE_LABELS,
  OWNER_ROLES,
  OWNERS_MAX,
  RIGHTS_MESSAGES,
  RIGHTS_TEXTS,
  SIGNATURE_STATE_TEXTS,
  SIGNING_TEXTS,
  asOneLine,
  awaitsArtistHand,
  esignDisclosure,
  isOneLine,
  type EsignDisclosure,
  type OwnerRole,
} from './rights-texts';

/** The desk's way past the publishing gate (CONTRACT §22): an admin's reason, kept in the history. */
export const RIGHTS_OVERRIDE_TEXTS = {
  waiting: (parts: string) => `Publishing waits for ${parts}.`,
  label: 'Reason to publish anyway (kept in the history)',
  hint: 'Leave it empty to wait for the rights. With a reason, publishing goes ahead and the history records who overrode the rights and why.',
} as const;

/** Shares are kept in hundredths of a percent, so 33.33 + 33.33 + 33.34 adds up exactly. */
export const shareHundredths = (share: number) => Math.round(share * 100);

/**
 * A name that is signed, or signs (CONTRACT §22): one line of printable text, checked before it is
 * trimmed so a trailing line break is refused too. The one rule of every owner's name and typed
 * signature, wherever it is taken (the wizard, `PUT …/owners`, both ways of signing).
 */
const signedName = (message: string, min: number, oneLineMessage: string) =>
  z
    .string({ message })
    .refine(isOneLine, oneLineMessage)
    .trim()
    .min(min, message)
    .max(OWNER_NAME_MAX, min > 1 ? message : `A name must be at most ${OWNER_NAME_MAX} characters`);

const ownerSchema = z.object({
  name: signedName(RIGHTS_MESSAGES.ownerName, 1, RIGHTS_MESSAGES.oneLineName),
  email: z
    .union([z.email({ message: RIGHTS_MESSAGES.ownerEmail }).max(254, RIGHTS_MESSAGES.ownerEmail), z.literal('')])
    .nullish()
    .transform((v) => (v ? v.toLowerCase() : null)),
  role: z.enum(OWNER_ROLES, { message: 'Choose a role: artist, writer, producer, featured or other' }),
  share: z
    .number({ message: RIGHTS_MESSAGES.share })
    .gt(0, RIGHTS_MESSAGES.share)
    .max(100, RIGHTS_MESSAGES.share)
    // At most two decimals, and at least 0.01 once rounded: 1e-9 is above 0 but is a share of nothing.
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6 && Math.round(v * 100) >= 1, RIGHTS_MESSAGES.share),
});
export type Owner = z.output<typeof ownerSchema>;
export type OwnerInput = z.input<typeof ownerSchema>;

/** A draft keeps whatever owners the artist has entered so far, each valid on its own. */
export const draftOwnersSchema = z.array(ownerSchema).max(OWNERS_MAX, RIGHTS_MESSAGES.ownersCount);

/**
 * The split sheet a submission goes to the label with (and `PUT …/owners`): 1–10 owners, shares
 * adding up to exactly 100, no address twice. The first owner is the submitting artist (the wizard
 * puts them there): they sign in the product, so their address is not asked.
 */
export const ownersSchema = z
  .array(ownerSchema)
  .min(1, RIGHTS_MESSAGES.ownersCount)
  .max(OWNERS_MAX, RIGHTS_MESSAGES.ownersCount)
  .superRefine((owners, ctx) => {
    const total = owners.reduce((sum, o) => sum + shareHundredths(o.share), 0);
    if (total !== 100_00) ctx.addIssue({ code: 'custom', message: RIGHTS_MESSAGES.sharesTotal });
    const emails = owners.map((o) => o.email).filter((e): e is string => e !== null);
    if (new Set(emails).size !== emails.length) ctx.addIssue({ code: 'custom', message: RIGHTS_MESSAGES.duplicateEmail });
  })
  .transform((owners) => owners.map((o, i) => (i === 0 ? { ...o, email: null } : o)));

/** PUT /api/submissions/{id}/owners */
export const ownersBodySchema = z.object({ owners: ownersSchema });

/** The default split sheet: the artist alone at 100%. */
export const soleOwner = (artistName: string): Owner[] => [{ name: artistName, email: null, role: 'artist', share: 100 }];

/** A submission's owners: those set, else the artist alone at 100%. */
export const ownersOf = (submission: { owners: Owner[] | null; artistName: string }): Owner[] =>
  submission.owners && submission.owners.length > 0 ? submission.owners : soleOwner(submission.artistName);

export const CONTENT_ID_ANSWERS = ['yes', 'no', 'unknown'] as const;
export type ContentIdAnswer = (typeof CONTENT_ID_ANSWERS)[number];
export const CONTENT_ID_LABELS: Record<ContentIdAnswer, string> = {
  yes: 'Yes',
  no: 'No',
  unknown: 'I don’t know',
};
export const DISTRIBUTOR_MAX = 200;

/** An ISRC: country (2 letters), registrant (3 letters or digits), year (2 digits), number (5 digits). */
const ISRC_PATTERN = /^([A-Z]{2})-?([A-Z0-9]{3})-?(\d{2})-?(\d{5})$/;
/** Kept without dashes, upper case: `USRC17607839`. */
export const isrcSchema = z
  .string({ message: RIGHTS_MESSAGES.isrc })
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => v === '' || ISRC_PATTERN.test(v), RIGHTS_MESSAGES.isrc)
  .transform((v) => (v === '' ? null : v.replaceAll('-', '')))
  .nullish()
  .transform((v) => v ?? null);
/** `USRC17607839` → `US-RC1-76-07839`, as a letter writes it. */
export const formatIsrc = (isrc: string) => isrc.replace(ISRC_PATTERN, '$1-$2-$3-$4');

export const AGREEMENT_STATUSES = ['unsigned', 'partly_signed', 'signed'] as const;
export type AgreementStatus = (typeof AGREEMENT_STATUSES)[number];

/** GET /api/submissions/{id}/agreement and GET /api/sign/{token}. */
export interface Agreement {
  status: AgreementStatus;
  version: number;
  sha256: string;
  text: string;
  songTitle: string;
  /** Who the owners license the song to: LABEL_LEGAL_NAME, else the product's name. */
  labelName: string;
  signatures: AgreementSignature[];
  /** What every signer is shown before signing (ESIGN_DISCLOSURE); its version is recorded with each signature. */
  disclosure: EsignDisclosure;
}
export interface AgreementSignature {
  name: string;
  role: OwnerRole;
  share: number;
  /** Whether the owner signs through an emailed link (else the artist signs for them). */
  hasEmail: boolean;
  signedAt: string | null;
  /** The artist signed on this owner's behalf, holding their written consent. */
  onBehalf: boolean;
}
/** GET /api/sign/{token}: the agreement, and which of its owners the link is for. */
export interface SigningLinkView extends Agreement {
  owner: { name: string; role: OwnerRole; share: number };
}

/**
 * POST /api/submissions/{id}/agreement/sign: the artist's own signature (typed name and consent),
 * or with `onBehalf: true` the signature of the owners without an email (`owner`: the index of one
 * of them; all of them when left out), the artist holding their written consent.
 */
export const signAgreementSchema = z.object({
  name: signedName(RIGHTS_MESSAGES.typedName, 2, RIGHTS_MESSAGES.oneLineSignature),
  consent: z.literal(true, { message: RIGHTS_MESSAGES.consent }),
  /**
   * The disclosure's version the signer was shown; another than the one in force → 409
   * `disclosure_changed`. Left out, the signature records the version the agreement is served with.
   */
  disclosureVersion: z.number({ message: 'disclosureVersion must be a number' }).int().positive().optional(),
  onBehalf: z.boolean().optional(),
  owner: z.number().int().min(0).max(OWNERS_MAX - 1).optional(),
});
/** POST /api/sign/{token} */
export const signByLinkSchema = signAgreementSchema.pick({ name: true, consent: true, disclosureVersion: true });

/** A signing link is valid this long after it was emailed (CONTRACT §22). */
export const SIGNING_LINK_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** POST /api/admin/submissions/{id}/allowlist */
export const allowlistSchema = z.object({ done: z.boolean({ message: 'done must be true or false' }) });

/** What publishing waits for (CONTRACT §22), in the order the 409 lists them. */
export const RIGHTS_PARTS = ['agreement', 'allowlist'] as const;
export type RightsPart = (typeof RIGHTS_PARTS)[number];
export const RIGHTS_PART_LABELS: Record<RightsPart, string> = {
  agreement: 'the owners’ signed licence agreement',
  allowlist: 'the channel allowlisted with the distributor (Content ID)',
};

/**
 * Where a submission's rights stand on the desk's list (issue 43 item 9): what publishing waits
 * for first, from approval on (before it there is no agreement to sign: null). The agreement
 * comes first, as the allowlist letter names its SHA-256; `complete` is what the gate lets through.
 */
export const RIGHTS_STATES = ['unsigned', 'partly_signed', 'allowlist_pending', 'complete'] as const;
export type DeskRightsState = (typeof RIGHTS_STATES)[number];
export const RIGHTS_STATE_LABELS: Record<DeskRightsState, string> = {
  unsigned: 'Agreement unsigned',
  partly_signed: 'Partly signed',
  allowlist_pending: 'Allowlist pending',
  complete: 'Rights complete',
};
export const RIGHTS_STATE_MESSAGE = `rights must be one of ${RIGHTS_STATES.join(', ')}`;

/** The optional part of a publishing request's body: an admin's reason to publish without the rights. */
export const rightsOverrideSchema = z.object({
  override: z
    .object({ reason: z.string({ message: RIGHTS_MESSAGES.overrideReason }).trim().min(3, RIGHTS_MESSAGES.overrideReason).max(500, 'At most 500 characters') })
    .optional(),
});

/** The desk's rights step: GET /api/admin/submissions/{id}/rights. */
export interface RightsState {
  owners: Owner[];
  agreement: { status: AgreementStatus; sha256: string } | null;
  contentId: ContentIdAnswer;
  distributor: string | null;
  isrc: string | null;
  /** Whether the desk shows the allowlist step (Content ID yes or unknown). */
  allowlistNeeded: boolean;
  allowlistDoneAt: string | null;
  missing: RightsPart[];
}

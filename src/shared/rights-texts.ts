/**
 * The lists, limits and texts of the rights (CONTRACT §22) without zod: the dashboard shows an
 * agreement and asks for a signature, and a first page should not carry zod for its words
 * (issue 37, decision 181). ./rights builds its schemas from these and re-exports them.
 */

import { PRODUCT_NAME } from './brand';

export const OWNER_ROLES = ['artist', 'writer', 'producer', 'featured', 'other'] as const;
export type OwnerRole = (typeof OWNER_ROLES)[number];
export const OWNER_ROLE_LABELS: Record<OwnerRole, string> = {
  artist: 'Artist',
  writer: 'Writer',
  producer: 'Producer',
  featured: 'Featured artist',
  other: 'Other',
};
/**
 * Whether an agreement waits for the artist's own hand (CONTRACT §22): their signature (the first
 * line), or one on behalf of an owner without an email, who has no other way to sign. The dashboard
 * asks "Sign the licence agreement" while it does.
 */
export const awaitsArtistHand = (signatures: readonly { hasEmail: boolean; signedAt: unknown }[]): boolean =>
  signatures.some((signature, index) => signature.signedAt === null && (index === 0 || !signature.hasEmail));

export const OWNERS_MAX = 10;
export const OWNER_NAME_MAX = 200;

export const RIGHTS_MESSAGES = {
  sharesTotal: 'The owners’ shares must add up to 100%',
  ownersCount: `A song has between 1 and ${OWNERS_MAX} owners`,
  ownerName: 'Give each owner’s name',
  ownerEmail: 'Enter a valid email address, or leave it empty',
  duplicateEmail: 'Two owners cannot share an email address',
  share: 'A share is a percentage above 0 and at most 100, with at most two decimals',
  isrc: 'An ISRC has 12 characters: CC-XXX-YY-NNNNN (dashes optional)',
  typedName: 'Type your full name to sign',
  oneLineName: 'A name is one line of plain text: no line breaks, control characters or text-direction marks',
  oneLineSignature: 'Type your name as one line of plain text: no line breaks, control characters or text-direction marks',
  disclosureChanged: 'The electronic records disclosure has changed since this page was opened: read it again, then sign',
  consent: 'Tick the box to confirm you agree',
  overrideReason: 'Give the reason for publishing without the rights',
} as const;

export const RIGHTS_TEXTS = {
  signPrompt: 'Sign the licence agreement',
  aiDisclosureLine: 'AI tools were used in making this music.',
} as const;

const listOf = (names: string[]) => (names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

/** The words of signing (the artist's dialog and a co-owner's page), CONTRACT §22. */
export const SIGNING_TEXTS = {
  /** The consent every signer ticks: to the disclosure shown above it, and to the agreement. */
  consent:
    'I have read the consent to electronic records above and agree to it. I have read this agreement and I sign it; my name, the time, my network address and browser are recorded with my signature.',
  /** Before the artist signs: the co-owners with an email are mailed their links only then. */
  linksAfterYou: (names: string[]) =>
    `${listOf(names)} ${names.length === 1 ? 'gets a signing link' : 'get their signing links'} by email as soon as you sign.`,
  linksSent: (names: string[]) => `${listOf(names)} ${names.length === 1 ? 'has' : 'have'} been emailed a signing link.`,
  onBehalfAlso: (names: string[]) =>
    `Also sign for ${listOf(names)}, who ${names.length === 1 ? 'has' : 'have'} no email: I hold their written consent to sign this agreement on their behalf.`,
  onBehalfOnly: (names: string[]) =>
    `${listOf(names)} ${names.length === 1 ? 'has' : 'have'} no email, so you sign for them. I hold their written consent to sign this agreement on their behalf.`,
  thanks: 'Thank you: your signature is recorded.',
  copyEmailed: 'We have emailed you a copy of the agreement as signed so far (PDF).',
  copyDownload: 'Download your copy (PDF)',
  copyDownloadHint: 'This download works for an hour after signing; the copy in your email stays.',
} as const;

/** How a signature stands, as each reader sees it (the artist in the dialog, a co-owner on their page). */
export const SIGNATURE_STATE_TEXTS = {
  artist: { own: 'Your signature', byLink: 'Signs from a link sent by email', onBehalf: 'No email: you sign for them' },
  owner: { own: 'Signs in the artist’s account', byLink: 'Signs from a link sent by email', onBehalf: 'No email: the artist signs for them' },
} as const;

/**
 * What a name that is signed (an owner's, a typed signature) may not hold (CONTRACT §22): control
 * characters (line breaks included, and the Unicode line and paragraph separators) and the
 * bidirectional controls that reorder what a reader sees (U+202A–U+202E, U+2066–U+2069, U+200E,
 * U+200F, U+061C). One of them lets a value add a line to the agreement or show other words than
 * it holds.
 */
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/u;
const NOT_ONE_LINE_ALL = new RegExp(NOT_ONE_LINE.source, 'gu');

/** Whether a value is one line of printable text. */
export const isOneLine = (value: string) => !NOT_ONE_LINE.test(value);

/**
 * A value laid out as one line whatever it holds: each forbidden character becomes a space. The
 * agreement's text and PDF put every value through it, so their layout never depends on their
 * data even if a value got past the schemas (defence in depth).
 */
export const asOneLine = (value: string) => value.replace(NOT_ONE_LINE_ALL, ' ');

/**
 * The consumer disclosure for electronic records and signatures (CONTRACT §22, as the US ESIGN
 * Act asks, decision 189): shown to every signer before they sign, served as `disclosure` with
 * the agreement, and its version recorded with each signature. A change of wording is a new
 * version: the texts of the versions signed so far stay in decision 189.
 */
export const ESIGN_DISCLOSURE = {
  version: 1,
  title: 'Consent to electronic records and signatures',
  paragraphs: [
    'Before you sign, please read this. By ticking the box and signing, you agree to sign this licence agreement electronically and to receive it, and any notice about it, electronically: on this page, by email and as a PDF file. Your typed name is your signature and binds you as a handwritten one would. This consent covers this agreement and the records about it only.',
    `You have the right to a paper copy. You can ask the Label for a paper copy of the agreement and of your signature record at any time, free of charge. To ask: as the artist, write to the Label in Messages in ${PRODUCT_NAME}; as another owner, ask the artist who named you to pass your request on. Tell the Label in the same way if your email address changes.`,
    'You may withdraw this consent. Before you sign, you withdraw it by not signing and telling the Label, in the same way, that you want to sign on paper; the Label then sends you the agreement on paper, and the song is not published until your signature is received. Withdrawing after you have signed does not undo your signature, but the Label sends you any further records about this agreement on paper.',
    'What you need: a device with a current web browser (such as Chrome, Firefox, Safari or Edge) to read and sign, an email account to receive your copy, and a PDF reader (most browsers and phones have one) to open it. To keep the records, download the PDF or print it. If you cannot open them, do not sign: ask for a paper copy instead.',
  ],
} as const;

/** The disclosure as the API serves it: its version and its text, one paragraph a line. */
export const esignDisclosure = () => ({ version: ESIGN_DISCLOSURE.version, title: ESIGN_DISCLOSURE.title, text: ESIGN_DISCLOSURE.paragraphs.join('\n') });
export type EsignDisclosure = ReturnType<typeof esignDisclosure>;

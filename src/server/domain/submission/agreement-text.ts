import { PRODUCT_NAME } from '@shared/brand';
import { OWNER_ROLE_LABELS, asOneLine, formatIsrc, type Owner } from '@shared/rights';
import { TERMS_SECTIONS, TERMS_VERSION } from '@shared/terms';

/** What the agreement is made from: the submission's facts at approval, the label, the day. */
export interface AgreementFacts {
  submissionId: string;
  songTitle: string;
  artistName: string;
  isrc: string | null;
  aiUsage: boolean;
  owners: Owner[];
  /** LABEL_LEGAL_NAME; the product's name when the label has not set it. */
  labelName: string | undefined;
  date: Date;
}

const longDate = (at: Date) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(at);
const percent = (share: number) => `${Number.isInteger(share) ? share : share.toFixed(2)}%`;

/** The Terms' own paragraphs, quoted as they stand in this version (SPEC §1). */
function termsParagraphs(sectionId: string): string[] {
  const section = TERMS_SECTIONS.find((s) => s.id === sectionId);
  return (section?.blocks ?? []).flatMap((block) => (typeof block === 'string' ? [block] : block.map((item) => `– ${item}`)));
}

/**
 * The licence agreement of one song (CONTRACT §22, decision 178): SPEC's licence (the Terms'
 * section 2, quoted) made specific to the song, its owners with their roles and shares, the label
 * and the day. Plain text, one paragraph a line, so what is signed is exactly what is stored and
 * hashed; the PDF only lays it out. Every value from the submission is put on one line
 * (`asOneLine`): a line break in a name or a title can never add a line (an owner, a clause) to
 * what the owners sign, even if it got past the schemas.
 */
export function agreementText(facts: AgreementFacts): string {
  const label = asOneLine(facts.labelName ?? PRODUCT_NAME);
  const song = `“${asOneLine(facts.songTitle)}” by ${asOneLine(facts.artistName)}`;
  const lines: string[] = [
    'LICENCE AGREEMENT',
    '',
    `Date: ${longDate(facts.date)}`,
    `Between ${label} (“the Label”) and the owners of the song named below (“the Owners”, each “an Owner”).`,
    '',
    '1. The song',
    `${song}${facts.isrc ? `, ISRC ${formatIsrc(facts.isrc)}` : ''}, sent to the Label through ${PRODUCT_NAME} as submission ${facts.submissionId} and approved by the Label.`,
    '',
    '2. The Owners',
    'Together the Owners hold all the rights in the song that this agreement licenses, in these shares:',
    ...facts.owners.map((o) => `– ${asOneLine(o.name)}, ${OWNER_ROLE_LABELS[o.role].toLowerCase()}, ${percent(o.share)}`),
    '',
    '3. The licence',
    `Each Owner, for their share, grants the Label the licence of section 2 of the Label’s Terms of Service (version ${TERMS_VERSION}) for this song, as if they had submitted it themselves. That section reads:`,
    ...termsParagraphs('license').map((p) => `“${p}”`),
    '',
    '4. What each Owner confirms',
    ...termsParagraphs('submission-requirements'),
    '',
    '5. Content ID',
    'Where the song is registered with a distributor or a Content ID service, the Owners authorise the Label to ask that distributor to allowlist the Label’s channel for this song, and to show this agreement as proof of the licence.',
    '',
    '6. Artificial intelligence',
    facts.aiUsage
      ? 'The artist stated that AI tools were used in making this music. The Label discloses this on the video (YouTube’s altered or synthetic content label) and in its description.'
      : 'The artist stated that no AI tools were used in making this music.',
    '',
    '7. Signing',
    'Each Owner signs electronically by typing their name and confirming their consent. The Label records, for each signature, the name typed, the time, the network address and browser it came from and the SHA-256 of this text, which identifies it exactly. For an Owner without an email address, the artist signs on their behalf and confirms holding that Owner’s written consent. This text does not change once an Owner has signed it.',
  ];
  return lines.join('\n');
}

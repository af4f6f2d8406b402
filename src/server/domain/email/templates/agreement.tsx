import { PRODUCT_NAME } from '@shared/brand';
import { EmailLayout, Paragraph } from './layout';
import type { EmailTemplate } from '../../../platform/email/outbox';
import { link } from './template';

/** The footer of an email to a co-owner: they may have no account, so it never says they have one. */
const ownerReason = (data: { artistName: string; songTitle: string }) =>
  `You get this email because ${data.artistName} named you as an owner of "${data.songTitle}" on ${PRODUCT_NAME}.`;

export interface SigningInvitationData {
  /** The signature row the link is made for, as the email goes out (signing-links.ts). */
  signatureId: string;
  ownerName: string;
  songTitle: string;
  artistName: string;
  signUrl: string;
  /** The link's last day, e.g. "27 December 2026". */
  validUntil: string;
}

/** To a co-owner with an email (CONTRACT §22): read and sign without an account, through a single-use link. */
export const signingInvitation: EmailTemplate<SigningInvitationData> = {
  preference: null,
  subject: (data) => `${data.artistName} asks you to sign the licence of "${data.songTitle}"`,
  body: (data) => (
    <EmailLayout
      preview={`Read and sign the licence agreement of "${data.songTitle}".`}
      heading="A licence agreement to sign"
      action={{ label: 'Read and sign the agreement', url: data.signUrl }}
      reason={ownerReason(data)}
      unsubscribe={undefined}
    >
      <Paragraph>
        Hello {data.ownerName}, {data.artistName} named you as an owner of "{data.songTitle}", which the label has approved to publish
        on its channel. The label needs every owner's consent first.
      </Paragraph>
      <Paragraph>
        The button opens the agreement: read it, type your name and sign. No account is needed. The link works once, until{' '}
        {data.validUntil}. Once you have signed, we email you a copy of the agreement.
      </Paragraph>
    </EmailLayout>
  ),
};

export interface AgreementCopyData {
  /** The co-owner's signature; the attachment is the agreement as it stood when they signed (agreement-copy.ts). */
  signatureId: string;
  ownerName: string;
  songTitle: string;
  artistName: string;
}

/** To a co-owner who has just signed through their link (CONTRACT §22): their copy, attached as a PDF. */
export const agreementCopy: EmailTemplate<AgreementCopyData> = {
  preference: null,
  subject: (data) => `Your signed copy of the licence of "${data.songTitle}"`,
  body: (data) => (
    <EmailLayout preview={`The licence agreement of "${data.songTitle}", as you signed it.`} heading="Your copy of the agreement" reason={ownerReason(data)}>
      <Paragraph>
        Hello {data.ownerName}, thank you for signing the licence agreement of "{data.songTitle}" by {data.artistName}. Your copy is
        attached as a PDF: the agreement, the signatures made so far (yours included) and the audit page that records them.
      </Paragraph>
      <Paragraph>
        Keep it with your records. For a paper copy, ask {data.artistName} to pass your request on to the label; it is free of charge.
      </Paragraph>
    </EmailLayout>
  ),
};

export interface AgreementSignatureData {
  submissionId: string;
  songTitle: string;
  artistName: string;
  /** Who signed: the owner's name, and whether the artist signed for them. */
  signerName: string;
  onBehalf: boolean;
  signedCount: number;
  ownerCount: number;
}

const signedLine = (data: AgreementSignatureData) =>
  data.onBehalf ? `${data.artistName} signed on behalf of ${data.signerName}.` : `${data.signerName} signed.`;

/** To the team: one owner signed, others still to sign. */
export const agreementSignatureReceived: EmailTemplate<AgreementSignatureData> = {
  preference: null,
  subject: (data) => `Signature received for "${data.songTitle}" (${data.signedCount} of ${data.ownerCount})`,
  body: (data, context) => (
    <EmailLayout
      preview={signedLine(data)}
      heading="A signature of the licence agreement"
      action={{ label: 'Open the submission', url: link(context, `/admin?submission=${data.submissionId}`) }}
      unsubscribe={undefined}
    >
      <Paragraph>
        {signedLine(data)} {data.signedCount} of {data.ownerCount} owners of "{data.songTitle}" by {data.artistName} have signed.
      </Paragraph>
    </EmailLayout>
  ),
};

/** To the team: every owner signed; the agreement is complete. */
export const agreementSigned: EmailTemplate<AgreementSignatureData> = {
  preference: null,
  subject: (data) => `All owners signed the licence of "${data.songTitle}"`,
  body: (data, context) => (
    <EmailLayout
      preview={`The licence agreement of "${data.songTitle}" is signed.`}
      heading="The licence agreement is signed"
      action={{ label: 'Open the submission', url: link(context, `/admin?submission=${data.submissionId}`) }}
      unsubscribe={undefined}
    >
      <Paragraph>
        {signedLine(data)} All {data.ownerCount} owners of "{data.songTitle}" by {data.artistName} have now signed: as far as the
        agreement goes, the song may be published.
      </Paragraph>
    </EmailLayout>
  ),
};

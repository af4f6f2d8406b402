import { PRODUCT_NAME } from '@shared/brand';
import { OWNER_ROLE_LABELS, asOneLine, formatIsrc } from '@shared/rights';
import type { AgreementRow, AgreementSignatureRow } from '../../platform/db/schema';
import { newPdf } from '../../platform/pdf-document';

const dateTime = (at: Date) => `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
const longDate = (at: Date) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(at);

/**
 * `agreement.pdf` (CONTRACT §22): the stored text as it was signed, a signature block (each owner,
 * role, share, and the name they typed, or "not signed yet"), and an audit page with each
 * signature's time, address, browser and the SHA-256 it was made on. Drawn only from the stored
 * rows and dated by the agreement, never by the moment of drawing: the text, its hash and the
 * signatures reproduce the same file byte for byte.
 */
export function renderAgreementPdf(agreement: AgreementRow, rows: AgreementSignatureRow[], songTitle: string, labelName: string | undefined): Promise<Buffer> {
  // Each value is laid out as one line whatever it holds (`asOneLine`): a line break in a typed
  // name cannot print a line of its own ("Signed … on 1 January 2020") on the page.
  const signatures = rows.map((s) => ({
    ...s,
    ownerName: asOneLine(s.ownerName),
    signedName: s.signedName === null ? null : asOneLine(s.signedName),
    ip: s.ip === null ? null : asOneLine(s.ip),
    userAgent: s.userAgent === null ? null : asOneLine(s.userAgent),
  }));
  const { pdf, done, left, width } = newPdf({
    Title: `Licence agreement: ${songTitle}`,
    Author: labelName ?? PRODUCT_NAME,
    Subject: `sha256 ${agreement.sha256}`,
    CreationDate: agreement.createdAt,
  });
  const [title, ...rest] = agreement.text.split('\n');
  pdf.font('bold').fontSize(18).text(title ?? '', left, 56, { width });
  pdf.moveDown(0.5);
  for (const line of rest) {
    if (line === '') {
      pdf.moveDown(0.5);
      continue;
    }
    const heading = /^\d+\. /.test(line);
    pdf.font(heading ? 'bold' : 'regular').fontSize(heading ? 11 : 9.5).fillColor('#000000').text(line, left, pdf.y, { width, paragraphGap: 2 });
  }

  pdf.moveDown(1);
  pdf.font('bold').fontSize(12).text('Signatures', left, pdf.y, { width });
  pdf.moveDown(0.3);
  for (const s of signatures) {
    if (pdf.y > pdf.page.height - pdf.page.margins.bottom - 60) pdf.addPage();
    pdf.font('bold').fontSize(10).text(`${s.ownerName} — ${OWNER_ROLE_LABELS[s.role]}, ${Number(s.share)}%`, left, pdf.y, { width });
    pdf.font('regular').fontSize(9.5).fillColor('#333333');
    if (s.signedAt && s.signedName) {
      pdf.text(
        s.onBehalf
          ? `Signed on their behalf by the artist, typing “${s.signedName}”, holding their written consent, on ${longDate(s.signedAt)}.`
          : `Signed “${s.signedName}” on ${longDate(s.signedAt)}.`,
        { width },
      );
    } else {
      pdf.text('Not signed yet.', { width });
    }
    pdf.fillColor('#000000').moveDown(0.5);
  }

  pdf.addPage();
  pdf.font('bold').fontSize(14).text('Audit page', left, 56, { width });
  pdf.font('regular').fontSize(9).moveDown(0.5);
  pdf.text(`Agreement version ${agreement.version}, made ${dateTime(agreement.createdAt)}.`, { width });
  pdf.text(`SHA-256 of the agreement’s text (UTF-8, as stored): ${agreement.sha256}`, { width });
  pdf.moveDown(0.8);
  for (const s of signatures) {
    pdf.font('bold').text(`${s.ownerName} (${OWNER_ROLE_LABELS[s.role]}, ${Number(s.share)}%)`, { width });
    pdf.font('regular');
    if (!s.signedAt) {
      pdf.text('Not signed yet.', { width }).moveDown(0.5);
      continue;
    }
    pdf.text(`Typed name: ${s.signedName ?? ''}${s.onBehalf ? ' (the artist, on this owner’s behalf)' : ''}`, { width });
    pdf.text(`Signed at: ${dateTime(s.signedAt)}`, { width });
    pdf.text(`By: ${s.signedBy ? 'the artist’s account, signed in' : 'single-use link emailed to the owner'}`, { width });
    pdf.text(`Network address: ${s.ip ?? 'unknown'}`, { width });
    pdf.text(`Browser: ${s.userAgent ?? 'unknown'}`, { width });
    pdf.text(`On the text with SHA-256: ${s.sha256 ?? ''}`, { width });
    // Left out for signatures made before the disclosure was shown, so their PDF keeps its bytes.
    if (s.disclosureVersion !== null) {
      pdf.text(`Electronic records disclosure: version ${s.disclosureVersion} shown before signing, consent given`, { width });
    }
    pdf.moveDown(0.5);
  }
  pdf.end();
  return done;
}

export interface AllowlistLetterFacts {
  labelName: string | undefined;
  channel: { id: string; title: string | null };
  distributor: string | null;
  songTitle: string;
  artistName: string;
  isrc: string | null;
  agreement: { sha256: string; status: string } | null;
  date: Date;
}

/**
 * The letter to the distributor (CONTRACT §22): please allowlist the label's channel for this song
 * in Content ID, with the channel (id, title, URL), the song, the artist, the ISRC and the SHA-256
 * of the signed agreement that proves the licence.
 */
export function renderAllowlistLetter(facts: AllowlistLetterFacts): Promise<Buffer> {
  const label = facts.labelName ?? PRODUCT_NAME;
  const { pdf, done, left, width } = newPdf({
    Title: `Allowlist request: ${facts.songTitle}`,
    Author: label,
    Subject: 'Content ID allowlist request',
    CreationDate: facts.date,
  });
  const channelUrl = `https://www.youtube.com/channel/${facts.channel.id}`;
  pdf.font('bold').fontSize(16).text('Request to allowlist a YouTube channel', left, 56, { width });
  pdf.font('regular').fontSize(10).fillColor('#444444').text(longDate(facts.date), { width });
  pdf.fillColor('#000000').moveDown(1);
  pdf.text(`To: ${facts.distributor ?? 'the distributor of the recording named below'}`, { width });
  pdf.text(`From: ${label}`, { width });
  pdf.moveDown(1);
  pdf.text(
    `We hold a licence from the owners of the recording below to publish it in a music video on our YouTube channel. So that our video is not claimed through Content ID, please add our channel to the allowlist (whitelist) for this recording.`,
    { width },
  );
  pdf.moveDown(1);
  const row = (label: string, value: string) => {
    pdf.font('bold').text(`${label}: `, { continued: true, width }).font('regular').text(value, { width });
  };
  // Without a connected channel the title is not known: the id and URL name it, once each (issue 43).
  if (facts.channel.title) row('Channel', facts.channel.title);
  row('Channel ID', facts.channel.id);
  row('Channel URL', channelUrl);
  row('Song', facts.songTitle);
  row('Artist', facts.artistName);
  row('ISRC', facts.isrc ? formatIsrc(facts.isrc) : 'not given by the artist');
  row(
    'Licence agreement',
    facts.agreement
      ? `SHA-256 ${facts.agreement.sha256} (${facts.agreement.status === 'signed' ? 'signed by every owner' : 'signatures being collected'})`
      : 'not made yet',
  );
  pdf.moveDown(1);
  pdf.text('We can send the signed agreement on request; its SHA-256 above identifies the exact text the owners signed.', { width });
  pdf.moveDown(1);
  pdf.text('Thank you,', { width });
  pdf.text(label, { width });
  pdf.end();
  return done;
}

import { BILLING_DOCUMENT_TITLE, includedVatCents, type BillingSeller } from '@shared/billing';
import { PRODUCT_NAME } from '@shared/brand';
import { TIERS } from '@shared/submissions';
import type { BillingDocumentRow } from '../../platform/db/schema';
import { newPdf } from '../../platform/pdf-document';

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);

const longDate = (at: Date) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(at);

/**
 * One invoice or credit note as a PDF (A4). The document's own record says what was bought,
 * by whom, for how much and from whom (the seller and VAT rate kept at its issue), as at its
 * issue (CONTRACT §19); `currentSeller`, the configuration's, is used only for a document issued
 * before the seller was kept with it. A credit note shows the amounts it takes back as negative.
 */
export function renderBillingDocument(document: BillingDocumentRow, currentSeller: BillingSeller): Promise<Buffer> {
  const seller = document.seller ?? currentSeller;
  const title = BILLING_DOCUMENT_TITLE[document.kind];
  // Dated by the document, not the moment of rendering: the same document always gives the same
  // bytes, whether fetched from the billing page or the account export.
  const { pdf, done, left, width } = newPdf({
    Title: `${title} ${document.number}`,
    Author: seller.legalName ?? PRODUCT_NAME,
    Subject: document.number,
    CreationDate: document.issuedAt,
  });

  const sign = document.kind === 'credit_note' ? -1 : 1;
  const amount = (cents: number) => money(sign * cents, document.currency);

  pdf.font('bold').fontSize(22).text(title, left, 56);
  pdf.font('regular').fontSize(10).fillColor('#444444');
  pdf.text(`Number: ${document.number}`);
  pdf.text(`Date: ${longDate(document.issuedAt)}`);
  if (document.kind === 'credit_note' && document.invoiceNumber) pdf.text(`Cancels invoice: ${document.invoiceNumber}`);
  pdf.moveDown(1.5);

  const top = pdf.y;
  const column = width / 2 - 10;
  pdf.fillColor('#000000').font('bold').fontSize(10).text('From', left, top, { width: column });
  pdf.font('regular').text(seller.legalName ?? PRODUCT_NAME, { width: column });
  if (seller.address) pdf.text(seller.address, { width: column });
  if (seller.taxId) pdf.text(`VAT / tax ID: ${seller.taxId}`, { width: column });
  const afterSeller = pdf.y;

  const right = left + width / 2 + 10;
  pdf.font('bold').text('Bill to', right, top, { width: column });
  pdf.font('regular');
  if (document.buyerName) pdf.text(document.buyerName, right, pdf.y, { width: column });
  if (document.buyerEmail) pdf.text(document.buyerEmail, right, pdf.y, { width: column });
  if (document.buyerCountry) pdf.text(document.buyerCountry, right, pdf.y, { width: column });
  pdf.y = Math.max(afterSeller, pdf.y) + 24;

  const amountWidth = 120;
  const row = (label: string, value: string, bold = false) => {
    const y = pdf.y;
    pdf.font(bold ? 'bold' : 'regular').fontSize(bold ? 12 : 10);
    pdf.text(label, left, y, { width: width - amountWidth - 10 });
    const labelBottom = pdf.y;
    pdf.text(value, left + width - amountWidth, y, { width: amountWidth, align: 'right' });
    pdf.y = Math.max(labelBottom, pdf.y) + 6;
    pdf.x = left;
  };
  const rule = () => {
    pdf.moveTo(left, pdf.y).lineTo(left + width, pdf.y).strokeColor('#cccccc').stroke();
    pdf.y += 8;
  };

  row('Description', 'Amount', true);
  rule();
  const plan = TIERS[document.pricingTier];
  row(`${plan.name} plan: music video for "${document.songTitle}"`, amount(document.amountCents));
  rule();
  if (seller.vatRatePercent !== undefined) {
    const vat = includedVatCents(document.amountCents, seller.vatRatePercent);
    row('Net amount', amount(document.amountCents - vat));
    row(`VAT ${seller.vatRatePercent}% (included)`, amount(vat));
  }
  row(`Total (${document.currency.toUpperCase()})`, amount(document.amountCents), true);
  pdf.moveDown(1.5);

  pdf.font('regular').fontSize(9).fillColor('#444444');
  pdf.text(
    document.kind === 'invoice'
      ? `Paid in full by card through Stripe on ${longDate(document.issuedAt)}.`
      : `Refunded in full to the card that paid, through Stripe, on ${longDate(document.issuedAt)}.`,
    left,
    pdf.y,
    { width },
  );
  if (document.stripePaymentIntentId) pdf.text(`Payment reference: ${document.stripePaymentIntentId}`, { width });
  pdf.end();
  return done;
}

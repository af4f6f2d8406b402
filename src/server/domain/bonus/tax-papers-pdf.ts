import type { BillingSeller } from '@shared/billing';
import { PRODUCT_NAME } from '@shared/brand';
import { TAX_FORM_LABELS, TAX_PAPERS_KEPT_YEARS } from '@shared/payees';
import { newPdf } from '../../platform/pdf-document';
import type { TaxFormRow } from '../../platform/db/schema';
import type { StatementLine } from './payees';

/**
 * A payee's tax papers as PDFs (CONTRACT §24): the tax form as signed, and a year's statement.
 * Both show the TIN only as its last four: the renderer is never handed more (the sealed TIN
 * stays in the database).
 */

/** What a paper may know of a tax form: everything but the sealed TIN. */
export type PrintableTaxForm = Omit<TaxFormRow, 'tinSealed'>;
export const printable = ({ tinSealed: _sealed, ...form }: TaxFormRow): PrintableTaxForm => form;

export const maskedTin = (last4: string | null) => (last4 ? `•••••${last4}` : 'none given');

const money = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
const longDate = (at: Date) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(at);
const stamp = (at: Date) => `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** The product's one PDF setup (platform/pdf-document.ts), titled and dated by the stored moment. */
const startPdf = (title: string, at: Date) => newPdf({ Title: title, Author: PRODUCT_NAME, Subject: title, CreationDate: at });

function field(pdf: PDFKit.PDFDocument, label: string, value: string) {
  pdf.font('bold').fontSize(9).fillColor('#555555').text(label);
  pdf.font('regular').fontSize(11).fillColor('#000000').text(value);
  pdf.moveDown(0.5);
}

/** The tax form as signed: the certification, the signer's typed name, when and from where. */
export function renderTaxFormPdf(form: PrintableTaxForm, payeeEmail: string | null): Promise<Buffer> {
  const title = form.kind === 'w9' ? 'Form W-9: Request for Taxpayer Identification Number and Certification' : 'Form W-8BEN: Certificate of Foreign Status of Beneficial Owner';
  const { pdf, done } = startPdf(title, form.signedAt);
  pdf.font('bold').fontSize(16).text(title);
  pdf.font('regular').fontSize(9).fillColor('#555555').text(`${TAX_FORM_LABELS[form.kind]}, filed electronically through ${PRODUCT_NAME}.`);
  pdf.moveDown(1);
  field(pdf, form.kind === 'w9' ? 'Name (as shown on your income tax return)' : 'Name of individual who is the beneficial owner', form.legalName);
  field(pdf, 'Country', form.country);
  field(pdf, 'Address', form.address);
  field(pdf, form.kind === 'w9' ? 'Taxpayer identification number (SSN or EIN)' : 'Foreign tax identifying number', maskedTin(form.tinLast4));
  if (payeeEmail) field(pdf, 'Email', payeeEmail);
  pdf.moveDown(0.5);
  pdf.font('bold').fontSize(11).text('Certification');
  pdf
    .font('regular')
    .fontSize(10)
    .text(
      form.kind === 'w9'
        ? 'Under penalties of perjury, I certify that the number shown on this form is my correct taxpayer identification number, that I am not subject to backup withholding, and that I am a U.S. citizen or other U.S. person.'
        : 'Under penalties of perjury, I declare that I have examined the information on this form and to the best of my knowledge and belief it is true, correct, and complete, and that I am the beneficial owner of the income to which this form relates and not a U.S. person.',
    );
  pdf.moveDown(1);
  field(pdf, 'Signed electronically by (typed name)', form.signedName);
  field(pdf, 'Signed at', stamp(form.signedAt));
  if (form.ip) field(pdf, 'From address', form.ip);
  pdf.moveDown(1);
  pdf.font('regular').fontSize(8).fillColor('#555555').text(`The full identification number is kept encrypted and shown only as its last four digits. Kept for ${TAX_PAPERS_KEPT_YEARS} years after the last payment.`);
  pdf.end();
  return done;
}

/** A year's statement: every share paid in it, the payee's papers and the label's. */
export function renderStatementPdf(input: {
  year: number;
  payeeName: string;
  form: PrintableTaxForm | undefined;
  lines: StatementLine[];
  seller: BillingSeller;
}): Promise<Buffer> {
  const { year, lines, form, seller } = input;
  const last = lines.at(-1)?.paidAt ?? new Date(Date.UTC(year, 11, 31));
  const { pdf, done } = startPdf(`Bonus statement ${year}: ${input.payeeName}`, last);
  const left = pdf.page.margins.left;
  const width = pdf.page.width - left - pdf.page.margins.right;
  pdf.font('bold').fontSize(20).text(`Bonus statement ${year}`);
  pdf.moveDown(1);
  const top = pdf.y;
  const half = width / 2 - 10;
  pdf.font('bold').fontSize(10).text('Paid by', left, top, { width: half });
  pdf.font('regular').text([seller.legalName ?? PRODUCT_NAME, seller.address, seller.taxId ? `Tax ID: ${seller.taxId}` : null].filter(Boolean).join('\n'), { width: half });
  const afterLeft = pdf.y;
  pdf.font('bold').text('Paid to', left + half + 20, top, { width: half });
  pdf
    .font('regular')
    .text([form?.legalName ?? input.payeeName, form ? `Country: ${form.country}` : null, `TIN: ${maskedTin(form?.tinLast4 ?? null)}`, form ? `Tax form: ${TAX_FORM_LABELS[form.kind]}` : 'Tax form: not on file'].filter(Boolean).join('\n'), { width: half });
  pdf.y = Math.max(afterLeft, pdf.y) + 20;
  const cols = [0, 80, 250, 320, 380, 450].map((x) => left + x);
  const header = ['Date', 'Song', 'Role', 'Share', 'Amount', 'Transfer'];
  const row = (cells: string[], bold = false) => {
    const y = pdf.y;
    pdf.font(bold ? 'bold' : 'regular').fontSize(9);
    cells.forEach((cell, i) => pdf.text(cell, cols[i]!, y, { width: (cols[i + 1] ?? left + width) - cols[i]! - 6, lineBreak: true }));
    pdf.x = left;
    pdf.moveDown(0.4);
  };
  row(header, true);
  let total = 0;
  for (const line of lines) {
    total += line.amountCents;
    row([longDate(line.paidAt), line.songTitle, line.role, `${line.share}%`, money(line.amountCents), line.transferId ?? 'paid by hand']);
  }
  pdf.moveDown(0.5);
  pdf.font('bold').fontSize(11).text(`Total paid in ${year}: ${money(total)}`, left);
  pdf.end();
  return done;
}

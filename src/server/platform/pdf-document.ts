import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';

/**
 * The one PDF setup of the product's documents (invoices and credit notes, agreements, allowlist
 * letters): A4, 56 pt margins, Noto Sans as `regular` and `bold`, dated by a stored moment.
 *
 * Noto Sans (SIL Open Font License), from its npm package rather than a binary in this
 * repository: PDF's standard fonts only know Latin-1, and artist and song names do not
 * (docs/decisions/160-invoices-as-pdf.md). Read once; pdfkit embeds only the glyphs a document uses.
 */
const require = createRequire(import.meta.url);
const FONTS = {
  regular: parsedOnce(readFileSync(require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'))),
  bold: parsedOnce(readFileSync(require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'))),
};

/**
 * The font as pdfkit's font engine (fontkit) parsed it, to hand to every document: pdfkit takes
 * a parsed font as well as bytes, and parsing the TTF for each document was ~90% of a render
 * (≈120 ms of ≈135 ms). Each document still makes its own subset. If pdfkit's inside ever
 * changes, the bytes are used as before.
 */
function parsedOnce(bytes: Buffer): Buffer {
  const probe = new PDFDocument({ autoFirstPage: false });
  probe.registerFont('probe', bytes);
  probe.font('probe');
  const parsed = (probe as unknown as { _font?: { font?: { layout?: unknown } } })._font?.font;
  probe.end();
  // Typed as the bytes: pdfkit's types list only the sources it documents.
  return typeof parsed?.layout === 'function' ? (parsed as unknown as Buffer) : bytes;
}

/**
 * A new document, its bytes collected in `done` once `pdf.end()` is called; `left` and `width`
 * are its text column. Dated by a stored moment (`info.CreationDate`): pdfkit derives the file's
 * ID from its info, so the same stored rows always give the same bytes (decision 178), whether
 * fetched from a page or the account export.
 */
export function newPdf(info: { Title: string; Author: string; Subject: string; CreationDate: Date }) {
  const pdf = new PDFDocument({ size: 'A4', margin: 56, info });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  pdf.registerFont('regular', FONTS.regular);
  pdf.registerFont('bold', FONTS.bold);
  const left = pdf.page.margins.left;
  const width = pdf.page.width - left - pdf.page.margins.right;
  return { pdf, done, left, width };
}

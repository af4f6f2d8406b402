import contentDisposition from 'content-disposition';
import { describe, expect, it } from 'vitest';
import { attachment } from './content-disposition';

describe('attachment (Content-Disposition of every download)', () => {
  it('quotes a plain name as it is', () => {
    expect(attachment('agreement.pdf')).toBe('attachment; filename="agreement.pdf"');
  });

  it('gives a name outside ISO-8859-1 an ASCII fallback and the UTF-8 name (RFC 6266), which parse back', () => {
    const header = attachment('Nora Vex – Ночь.mp4');
    expect(header).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    expect(contentDisposition.parse(header).parameters.filename).toBe('Nora Vex – Ночь.mp4');
  });

  it('never lets a quote, a path or a line break out of the parameter', () => {
    const header = attachment('../a"b\\c\r\nSet-Cookie: x.pdf');
    expect(header).not.toMatch(/[\r\n]/);
    const { filename } = contentDisposition.parse(header).parameters;
    expect(filename).toMatch(/Set-Cookie: x\.pdf$/);
    expect(filename).not.toMatch(/[/\\]/);
  });
});

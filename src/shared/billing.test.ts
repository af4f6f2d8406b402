import { describe, expect, it } from 'vitest';
import { formatDocumentAmount } from './billing';

describe('a document’s amount in a list', () => {
  it('reads an invoice as what was paid', () => {
    expect(formatDocumentAmount({ kind: 'invoice', amount: '49.00', currency: 'usd' })).toBe('$49.00');
  });

  it('reads a credit note as money taken back, never like an invoice', () => {
    expect(formatDocumentAmount({ kind: 'credit_note', amount: '49.00', currency: 'usd' })).toBe('-$49.00 refunded');
    expect(formatDocumentAmount({ kind: 'credit_note', amount: '99', currency: 'eur' })).toBe('-€99.00 refunded');
  });
});

import { describe, expect, it } from 'vitest';
import { splitCents } from './payees';
import { taxFormSchema } from './payee-schemas';

describe('an earning split by shares (CONTRACT §24, decision 194)', () => {
  it('splits $100 among 33.33/33.33/33.34 exactly', () => {
    expect(splitCents(100_00, [33_33, 33_33, 33_34])).toEqual([33_33, 33_33, 33_34]);
  });

  it('gives the cents left over to the largest remainders, ties to the artist first then owner order', () => {
    // $25.00 by 33.33/33.33/33.34: 833.25, 833.25, 833.5 → one cent left, to the largest remainder.
    expect(splitCents(25_00, [33_33, 33_33, 33_34])).toEqual([8_33, 8_33, 8_34]);
    // $0.10 in three equal-ish parts: 3.333/3.333/3.334 → floors 3,3,3 and the cent to the largest remainder.
    expect(splitCents(10, [33_33, 33_33, 33_34])).toEqual([3, 3, 4]);
    // $1.00 split 50/25/25 with no remainder, and $0.01 split 50/50 → the artist's.
    expect(splitCents(1_00, [50_00, 25_00, 25_00])).toEqual([50, 25, 25]);
    expect(splitCents(1, [50_00, 50_00])).toEqual([1, 0]);
    // Equal remainders after the artist go in owner order.
    expect(splitCents(2, [20_00, 40_00, 40_00])).toEqual([0, 1, 1]);
    expect(splitCents(1, [10_00, 45_00, 45_00])).toEqual([0, 1, 0]);
  });

  it('always adds up to the earning', () => {
    for (const total of [0, 1, 7, 99, 25_00, 1234_57]) {
      for (const shares of [[100_00], [33_33, 33_33, 33_34], [12_50, 12_50, 75_00], [1, 99_99], [10_00, 10_00, 10_00, 10_00, 10_00, 10_00, 10_00, 10_00, 10_00, 10_00]]) {
        const parts = splitCents(total, shares);
        expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
        expect(parts.every((p) => p >= 0)).toBe(true);
      }
    }
  });
});

describe('a tax form', () => {
  const base = { legalName: 'Ana Souza', address: 'Rua Augusta 100, São Paulo', signature: { name: 'Ana Souza', consent: true } };
  it('takes a W-9 only from the US with 9 digits', () => {
    expect(taxFormSchema.safeParse({ ...base, kind: 'w9', country: 'US', tin: '123-45-6789' }).data?.tin).toBe('123456789');
    expect(taxFormSchema.safeParse({ ...base, kind: 'w9', country: 'BR', tin: '123456789' }).success).toBe(false);
    expect(taxFormSchema.safeParse({ ...base, kind: 'w9', country: 'US', tin: '12345678' }).success).toBe(false);
    expect(taxFormSchema.safeParse({ ...base, kind: 'w9', country: 'US' }).success).toBe(false);
  });
  it('takes a W-8BEN only from another country, the TIN optional', () => {
    expect(taxFormSchema.safeParse({ ...base, kind: 'w8ben', country: 'br' }).data?.country).toBe('BR');
    expect(taxFormSchema.safeParse({ ...base, kind: 'w8ben', country: 'US' }).success).toBe(false);
    expect(taxFormSchema.safeParse({ ...base, kind: 'w8ben', country: 'Brazil' }).success).toBe(false);
    expect(taxFormSchema.safeParse({ ...base, kind: 'w8ben', country: 'BR', signature: { name: 'Ana', consent: false } }).success).toBe(false);
  });
});

/**
 * The payees' request bodies (CONTRACT §24), zod schemas apart from payees.ts: the artist's first
 * page shows shares with payees.ts's texts and types, and must not load zod for them.
 */
import { z } from 'zod';
import { isOneLine } from './rights-texts';
import { TAX_FORM_KINDS } from './payees';

const COUNTRY = /^[A-Z]{2}$/;
export const TAX_FORM_TEXT_MAX = 200;
export const TAX_FORM_ADDRESS_MAX = 500;
const oneLine = isOneLine;

/** POST /api/payouts/tax-form, POST /api/payee/{token}/tax-form (CONTRACT §24). */
export const taxFormSchema = z
  .object({
    kind: z.enum(TAX_FORM_KINDS, { message: 'kind must be w9 or w8ben' }),
    legalName: z.string({ message: 'Enter your legal name' }).refine(oneLine, 'The legal name must be one line').trim().min(2, 'Enter your legal name').max(TAX_FORM_TEXT_MAX),
    country: z
      .string({ message: 'Choose your country' })
      .trim()
      .transform((v) => v.toUpperCase())
      .refine((v) => COUNTRY.test(v), 'country must be a two-letter ISO 3166-1 code'),
    address: z
      .string({ message: 'Enter your address' })
      // eslint-disable-next-line no-control-regex -- control characters are what this refuses
      .refine((v) => !/[\u0000-\u0009\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(v), 'The address may not hold control characters')
      .trim()
      .min(5, 'Enter your address')
      .max(TAX_FORM_ADDRESS_MAX),
    tin: z
      .string({ message: 'tin must be text' })
      .trim()
      .transform((v) => v.replace(/[\s-]/g, ''))
      .pipe(z.string().regex(/^[A-Za-z0-9]{0,30}$/, 'The tax identification number may hold only letters and digits'))
      .nullish()
      .transform((v) => (v ? v : null)),
    signature: z.object(
      {
        name: z.string({ message: 'Type your name to sign' }).refine(oneLine, 'The signature must be one line').trim().min(2, 'Type your name to sign').max(TAX_FORM_TEXT_MAX),
        consent: z.literal(true, { message: 'Confirm that you sign this form electronically' }),
      },
      { message: 'signature must be {name, consent: true}' },
    ),
  })
  .superRefine((form, ctx) => {
    if (form.kind === 'w9') {
      if (form.country !== 'US') ctx.addIssue({ code: 'custom', path: ['country'], message: 'A W-9 is for the United States: choose the W-8BEN for another country' });
      if (!form.tin || !/^\d{9}$/.test(form.tin)) ctx.addIssue({ code: 'custom', path: ['tin'], message: 'A W-9 needs a 9-digit SSN or EIN' });
    } else if (form.country === 'US') {
      ctx.addIssue({ code: 'custom', path: ['country'], message: 'A W-8BEN is for other countries than the United States: choose the W-9' });
    }
  });
export type TaxFormInput = z.input<typeof taxFormSchema>;
export type TaxForm = z.output<typeof taxFormSchema>;

export const payeeLinkSchema = z.object({ email: z.email({ message: 'Enter a valid email address' }).max(254).transform((v) => v.toLowerCase()) });
export const ownerEmailSchema = payeeLinkSchema;

export const ownerIdParam = z.coerce.number({ message: 'ownerId must be a whole number' }).int().min(0).max(9);


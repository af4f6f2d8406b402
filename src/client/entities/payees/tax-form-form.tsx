import { useState, type FormEvent } from 'react';
import { PAYEE_TEXTS, TAX_FORM_LABELS, type TaxFormKind } from '@shared/payees';
import { type TaxFormInput } from '@shared/payee-schemas';
import { Button } from '@client/components/ui/button';
import { Checkbox } from '@client/components/ui/checkbox';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';

/**
 * The tax form (CONTRACT §24): W-9 for the United States (a 9-digit SSN or EIN), W-8BEN for
 * every other country (the tax number optional), signed with a typed name and consent. Shared by
 * the artist's billing page and a payee's own page; the server checks it all again.
 */
export function TaxFormForm({ defaultName, pending, error, onSubmit }: { defaultName: string; pending: boolean; error: string | null; onSubmit: (form: TaxFormInput) => void }) {
  const [kind, setKind] = useState<TaxFormKind>('w8ben');
  const [legalName, setLegalName] = useState(defaultName);
  const [country, setCountry] = useState('');
  const [address, setAddress] = useState('');
  const [tin, setTin] = useState('');
  const [signature, setSignature] = useState('');
  const [consent, setConsent] = useState(false);
  const digits = tin.replace(/[\s-]/g, '');
  const ready =
    legalName.trim().length >= 2 &&
    address.trim().length >= 5 &&
    signature.trim().length >= 2 &&
    consent &&
    (kind === 'w9' ? /^\d{9}$/.test(digits) : /^[A-Za-z]{2}$/.test(country.trim()) && country.trim().toUpperCase() !== 'US');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    onSubmit({
      kind,
      legalName: legalName.trim(),
      country: kind === 'w9' ? 'US' : country.trim().toUpperCase(),
      address: address.trim(),
      tin: digits || null,
      signature: { name: signature.trim(), consent: true },
    });
  };
  return (
    <form className="grid gap-3" onSubmit={submit} aria-label="Tax form">
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Where you pay tax</legend>
        {(['w9', 'w8ben'] as const).map((k) => (
          <label key={k} className="flex items-center gap-2 text-sm">
            <input type="radio" name="tax-form-kind" value={k} checked={kind === k} onChange={() => setKind(k)} className="size-4 accent-primary" />
            {TAX_FORM_LABELS[k]}
          </label>
        ))}
      </fieldset>
      <FormField id="tax-legal-name" label="Legal name">
        <Input autoComplete="name" value={legalName} onChange={(e) => setLegalName(e.target.value)} maxLength={200} />
      </FormField>
      {kind === 'w8ben' ? (
        <FormField id="tax-country" label="Country (two-letter code)" hint="For example BR, GB, DE or JP">
          <Input autoComplete="country" value={country} onChange={(e) => setCountry(e.target.value)} maxLength={2} className="w-24 uppercase" />
        </FormField>
      ) : null}
      <FormField id="tax-address" label="Address">
        <Input autoComplete="address-line1" value={address} onChange={(e) => setAddress(e.target.value)} maxLength={500} />
      </FormField>
      <FormField
        id="tax-tin"
        label={kind === 'w9' ? 'SSN or EIN (9 digits)' : 'Tax identification number (optional)'}
        hint="Kept encrypted; only its last four digits are ever shown again."
      >
        <Input inputMode={kind === 'w9' ? 'numeric' : 'text'} autoComplete="off" value={tin} onChange={(e) => setTin(e.target.value)} maxLength={30} />
      </FormField>
      <FormField id="tax-signature" label="Your full name, as your signature">
        <Input autoComplete="name" value={signature} onChange={(e) => setSignature(e.target.value)} maxLength={200} />
      </FormField>
      {/* Not a wrapping <label>: inside a form the checkbox also renders a hidden input, and one label must name one control. */}
      <div className="flex items-start gap-2 text-sm">
        <Checkbox id="tax-consent" checked={consent} onCheckedChange={(v) => setConsent(v === true)} className="mt-0.5" aria-label="I sign this form electronically" />
        <label htmlFor="tax-consent">{PAYEE_TEXTS.signConsent}</label>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-destructive-soft">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={!ready || pending} className="justify-self-start">
        Sign and file the form
      </Button>
    </form>
  );
}

import { RIGHTS_MESSAGES, SIGNING_TEXTS, type EsignDisclosure } from '@shared/rights-texts';
import { Checkbox } from '@client/components/ui/checkbox';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { EsignDisclosureView } from './agreement-view';

/** A typed name is a signature from two characters on (RIGHTS_MESSAGES.typedName says so). */
export const typedNameOk = (name: string) => name.trim().length >= 2;

/**
 * What every signature is given with (CONTRACT §22): the electronic-records disclosure, the typed
 * name and the consent to sign electronically. The artist's signing step and an owner's page by
 * link both draw these; each adds its own button and what else it signs.
 */
export function SignatureFields({
  id,
  disclosure,
  name,
  onNameChange,
  consent,
  onConsentChange,
}: {
  id: string;
  disclosure: EsignDisclosure;
  name: string;
  onNameChange: (name: string) => void;
  consent: boolean;
  onConsentChange: (consent: boolean) => void;
}) {
  return (
    <>
      <EsignDisclosureView disclosure={disclosure} />
      <FormField id={id} label="Your full name, as your signature" hint={typedNameOk(name) ? undefined : RIGHTS_MESSAGES.typedName}>
        <Input autoComplete="name" value={name} onChange={(e) => onNameChange(e.target.value)} maxLength={200} />
      </FormField>
      <label className="flex items-start gap-2 text-sm">
        <Checkbox checked={consent} onCheckedChange={(v) => onConsentChange(v === true)} className="mt-0.5" aria-label="I agree to sign electronically" />
        <span>{SIGNING_TEXTS.consent}</span>
      </label>
    </>
  );
}

import type { ReactNode } from 'react';
import { Controller } from 'react-hook-form';
import { Checkbox } from '@client/components/ui/checkbox';
import type { WizardForm, WizardValues } from './wizard-form';

interface LabelledCheckboxProps {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: ReactNode;
  description?: ReactNode;
}

/** A checkbox with its label and an optional explanation under it. */
function LabelledCheckbox({ id, checked, onChange, label, description }: LabelledCheckboxProps) {
  return (
    <div className="flex items-start gap-3 rounded-lg border bg-background/40 p-4">
      <Checkbox id={id} checked={checked} onCheckedChange={(next) => onChange(next === true)} className="mt-0.5" />
      <div className="grid gap-1">
        <label htmlFor={id} className="cursor-pointer text-sm font-medium leading-none">
          {label}
        </label>
        {description ? <p className="text-xs text-muted-foreground">{description}</p> : null}
      </div>
    </div>
  );
}

/** The wizard's yes-or-no fields. */
type FlagField = { [K in keyof WizardValues]: WizardValues[K] extends boolean ? K : never }[keyof WizardValues];

/** A labelled checkbox bound to one yes-or-no field of the wizard's form. */
export function WizardCheckbox({ form, field, ...box }: Omit<LabelledCheckboxProps, 'checked' | 'onChange'> & { form: WizardForm; field: FlagField }) {
  return <Controller control={form.control} name={field} render={({ field: { value, onChange } }) => <LabelledCheckbox {...box} checked={value} onChange={onChange} />} />;
}

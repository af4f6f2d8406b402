import type { ReactNode } from 'react';
import { Controller } from 'react-hook-form';
import { RadioGroup, RadioGroupItem } from '@client/components/ui/radio-group';
import { cn } from '@client/lib/utils';
import type { WizardForm, WizardValues } from './wizard-form';

interface Choice<T extends string> {
  value: T;
  label: ReactNode;
  description?: ReactNode;
  icon?: ReactNode;
}

interface ChoiceCardsProps<T extends string> {
  name: string;
  /** The group's accessible name. */
  label: string;
  value: T;
  onChange: (value: T) => void;
  choices: Choice<T>[];
  className?: string;
}

/** A radio group drawn as selectable cards. */
function ChoiceCards<T extends string>({ name, label, value, onChange, choices, className }: ChoiceCardsProps<T>) {
  return (
    <RadioGroup aria-label={label} value={value} onValueChange={(next) => onChange(next as T)} className={cn('grid gap-3 sm:grid-cols-2', className)}>
      {choices.map((choice) => {
        const id = `${name}-${choice.value}`;
        return (
          <label
            key={choice.value}
            htmlFor={id}
            className={cn(
              'flex cursor-pointer items-start gap-3 rounded-lg border bg-background/40 p-4 transition-colors hover:border-primary/50',
              value === choice.value && 'border-primary bg-primary/10',
            )}
          >
            <RadioGroupItem id={id} value={choice.value} className="mt-0.5" />
            <span className="grid gap-1">
              <span className="flex items-center gap-2 text-sm font-medium">
                {choice.icon}
                {choice.label}
              </span>
              {choice.description ? <span className="text-xs text-muted-foreground">{choice.description}</span> : null}
            </span>
          </label>
        );
      })}
    </RadioGroup>
  );
}

/** The wizard's fields that hold one of a few strings (a type, a method, a status...). */
type ChoiceField = { [K in keyof WizardValues]: WizardValues[K] extends string ? K : never }[keyof WizardValues];

/** Choice cards bound to one field of the wizard's form. */
export function WizardChoiceCards<K extends ChoiceField>({ form, field, ...cards }: Omit<ChoiceCardsProps<WizardValues[K]>, 'value' | 'onChange'> & { form: WizardForm; field: K }) {
  return (
    <Controller
      control={form.control}
      name={field}
      render={({ field: { value, onChange } }) => <ChoiceCards {...cards} value={value as WizardValues[K]} onChange={onChange} />}
    />
  );
}

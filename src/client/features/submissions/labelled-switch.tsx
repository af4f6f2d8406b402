import type { ReactNode } from 'react';
import { Checkbox } from '@client/components/ui/checkbox';

interface LabelledCheckboxProps {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: ReactNode;
  description?: ReactNode;
}

/** A checkbox with its label and an optional explanation under it. */
export function LabelledCheckbox({ id, checked, onChange, label, description }: LabelledCheckboxProps) {
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

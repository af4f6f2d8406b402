import type { ReactNode } from 'react';
import { cn } from '@client/lib/utils';
import { Label } from './label';
import { Slot } from './slot';

interface FormFieldProps {
  /** The control's id; the label, hint and error are tied to it. */
  id: string;
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  className?: string;
  /** One control (input, textarea, select trigger…); it receives id, aria-invalid and aria-describedby. */
  children: ReactNode;
}

/** A labelled form control with its validation message shown (and announced) under it. */
export function FormField({ id, label, error, hint, className, children }: FormFieldProps) {
  // The error replaces the hint: both say what the field needs, and one message is easier to read.
  const hintId = hint && !error ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    // content-start: beside a taller field in a row (one showing its error) it keeps its label and
    // control at the top instead of spreading them (Country dropped out of line, issue 36).
    <div className={cn('grid content-start gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Slot id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy}>
        {children}
      </Slot>
      {hintId ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-destructive-soft">
          {error}
        </p>
      ) : null}
    </div>
  );
}

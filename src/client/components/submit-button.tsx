import type { ReactNode } from 'react';
import { Button, type ButtonProps } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';

interface SubmitButtonProps {
  /** The form's request is on its way: the button waits, with a spinner before its label. */
  pending: boolean;
  disabled?: boolean;
  variant?: Extract<ButtonProps['variant'], 'default' | 'destructive'>;
  className?: string;
  children: ReactNode;
}

/** A form's submit button that cannot be pressed twice while its request runs. */
export function SubmitButton({ pending, disabled = false, variant = 'default', className, children }: SubmitButtonProps) {
  return (
    <Button type="submit" variant={variant} className={className} disabled={pending || disabled}>
      {pending ? <Spinner className={variant === 'destructive' ? 'text-destructive-foreground' : 'text-primary-foreground'} /> : null}
      {children}
    </Button>
  );
}

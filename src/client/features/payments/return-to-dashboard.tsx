import { Link } from 'wouter';
import { Button, type ButtonProps } from '@client/components/ui/button';

/** The way back that every payment screen offers, in the weight each screen gives it. */
export function ReturnToDashboard({ variant, className }: Pick<ButtonProps, 'variant' | 'className'>) {
  return (
    <Button asChild variant={variant} className={className}>
      <Link href="/dashboard">Return to Dashboard</Link>
    </Button>
  );
}

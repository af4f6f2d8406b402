import { lazy, Suspense, useRef, useState } from 'react';
import { ACCOUNT_TEXTS } from '@shared/auth-texts';
import { Button } from '@client/components/ui/button';

/** The dialog (and Radix Dialog with it) loads with the first click, not with the sign-in page (issue 16's page budgets). */
const ForgotPasswordDialog = lazy(() => import('./forgot-password-dialog').then((module) => ({ default: module.ForgotPasswordDialog })));

/**
 * "Forgot password?" on the sign-in tab (CONTRACT §11); as a button with its own label where a
 * spent reset link offers a new one.
 */
export function ForgotPasswordLink({ email, label = ACCOUNT_TEXTS.forgotPassword, asButton = false }: { email: string; label?: string; asButton?: boolean }) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);

  return (
    <>
      <Button
        ref={trigger}
        type="button"
        variant={asButton ? 'default' : 'link'}
        size={asButton ? 'default' : 'sm'}
        className={asButton ? undefined : 'h-auto justify-self-end p-0 text-sm'}
        aria-haspopup="dialog"
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        {label}
      </Button>
      {wanted ? (
        <Suspense fallback={null}>
          <ForgotPasswordDialog email={email} open={open} onOpenChange={setOpen} trigger={trigger} />
        </Suspense>
      ) : null}
    </>
  );
}

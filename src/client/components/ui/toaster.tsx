import { useEffect, useLayoutEffect, useState } from 'react';
import { dismissToast, showCarriedOverToast, useToasts } from '@client/lib/toast';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast';

/** Below the small-tablet width a toast spans the screen's bottom: 8rem, with its margin. */
const PHONE_QUERY = '(max-width: 639.98px)';
const BOTTOM_ZONE_PX = 128;

/**
 * On a phone, whether the control in use (the focused one: the message box after Enter, Next after
 * a tap) sits in the bottom zone a toast would cover. Then the toast shows at the top instead.
 */
function focusInBottomZone(): boolean {
  if (!window.matchMedia(PHONE_QUERY).matches) return false;
  const focused = document.activeElement;
  if (!focused || focused === document.body) return false;
  const rect = focused.getBoundingClientRect();
  return rect.bottom > window.innerHeight - BOTTOM_ZONE_PX && rect.top < window.innerHeight;
}

/** Renders the toasts raised anywhere with `toast()`; one at a time (SPEC §9). */
export function Toaster() {
  const toasts = useToasts();
  const shownId = toasts.find((t) => t.open)?.id;
  const [atTop, setAtTop] = useState(false);

  // Decided as each toast appears, before it is painted, and kept while it shows: it does not jump.
  useLayoutEffect(() => {
    if (shownId !== undefined) setAtTop(focusInBottomZone());
  }, [shownId]);

  useEffect(() => {
    showCarriedOverToast();
  }, []);

  return (
    <ToastProvider>
      {toasts.map(({ id, title, description, variant, duration, open }) => (
        <Toast
          key={id}
          variant={variant}
          duration={duration}
          open={open}
          type={variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(next) => {
            if (!next) dismissToast(id);
          }}
        >
          <div className="grid gap-1">
            <ToastTitle>{title}</ToastTitle>
            {description ? <ToastDescription>{description}</ToastDescription> : null}
          </div>
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport data-placement={atTop ? 'top' : 'bottom'} className={atTop ? 'top-0 bottom-auto' : undefined} />
    </ToastProvider>
  );
}

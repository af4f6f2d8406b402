import { useEffect, useState, type ComponentType } from 'react';
import { useLocation } from 'wouter';
import { showCarriedOverToast, useToasts } from '@client/lib/toast';

/**
 * What every document of the app mounts around its pages: the app (app.tsx) and the mailed-link
 * pages' light entry (mailed-link-app.tsx, decision 202).
 */

type ToasterComponent = ComponentType;
let toasterLoad: Promise<ToasterComponent> | undefined;
const loadToaster = () =>
  (toasterLoad ??= import('@client/components/ui/toaster').then(
    (module) => module.Toaster,
    (error: unknown) => {
      toasterLoad = undefined;
      throw error;
    },
  ));

/** What tells the toaster that the person is acting on the page (press, tap or key). */
const FIRST_ACT_EVENTS = ['pointerdown', 'keydown'] as const;

/**
 * The toast machinery (Radix Toast) is fetched when the page first needs it, not with every first
 * page (the /auth budget, and issue 37: a first page fetches what it shows, decision 181): with
 * the first toast, or as soon as the person first presses, taps or types on the page, whichever
 * comes first. A toast answers something; the first one is often an error of something the
 * person did (an upload that lost the connection), and offline its chunk could not come
 * (issue 33), so it is fetched when they start acting, while still online. Without React.lazy, a
 * failed fetch throws nowhere: it is tried again when the browser is back online, and toasts
 * raised meanwhile wait in lib/toast.ts's store.
 */
export function ToasterWhenNeeded() {
  const [Toaster, setToaster] = useState<ToasterComponent | null>(null);
  // Once needed, for good: a toast dismissed before the chunk came leaves the next one to show.
  const [needed, setNeeded] = useState(false);
  const toastRaised = useToasts().length > 0;
  if (toastRaised && !needed) setNeeded(true);
  useEffect(() => {
    showCarriedOverToast();
    const onAct = () => setNeeded(true);
    for (const type of FIRST_ACT_EVENTS) window.addEventListener(type, onAct, { capture: true, once: true, passive: true });
    return () => {
      for (const type of FIRST_ACT_EVENTS) window.removeEventListener(type, onAct, { capture: true });
    };
  }, []);
  useEffect(() => {
    if (!needed) return;
    let cancelled = false;
    const attempt = () =>
      loadToaster().then(
        (component) => {
          if (!cancelled) setToaster(() => component);
        },
        () => window.addEventListener('online', attempt, { once: true }),
      );
    void attempt();
    return () => {
      cancelled = true;
      window.removeEventListener('online', attempt);
    };
  }, [needed]);
  return Toaster ? <Toaster /> : null;
}

/** Client-side navigation keeps the scroll position; a new page should start at its top. */
export function ScrollToTopOnNavigate() {
  const [location] = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}

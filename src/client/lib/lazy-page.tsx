import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadChunk } from '@client/lib/chunk-load';

/** Forgets every page whose chunk failed to load, so that "Try again" fetches it anew. */
const forgetFailedLoads = new Set<() => void>();
export const retryFailedPages = () => {
  for (const forget of forgetFailedLoads) forget();
};

/**
 * Every screen is its own chunk, fetched when its route is first shown: the first load of /auth
 * carries only the sign-in page, and Stripe, the player, the wizard and the admin desk come only
 * with the screens that use them (issue 16; sizes held by bench/bundle.bench.ts). A chunk that
 * fails to load reloads the page once or reaches the route's error boundary (lib/chunk-load.ts);
 * React.lazy keeps a failure for good, so a failed page gets a new lazy component on retry.
 */
export function page<K extends string, P extends object = object>(load: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () =>
    (loading ??= loadChunk(load).then(
      (module) => ({ default: module[name] }),
      (error: unknown) => {
        forgetFailedLoads.add(forget);
        throw error;
      },
    ));
  let Lazy: LazyExoticComponent<ComponentType<P>> = lazy(preload);
  function forget() {
    forgetFailedLoads.delete(forget);
    loading = undefined;
    Lazy = lazy(preload);
  }
  function Page(props: P) {
    return <Lazy {...props} />;
  }
  return Object.assign(Page, { preload });
}

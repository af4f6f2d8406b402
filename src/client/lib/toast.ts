import { useSyncExternalStore } from 'react';

/** Toast state lives outside React so that non-component code (the query client) can raise toasts. */

/** SPEC §9: one toast visible at a time. */
const TOAST_LIMIT = 1;
/** Time for the closing animation before a dismissed toast leaves the DOM. */
const REMOVE_DELAY_MS = 1000;
const CARRY_OVER_KEY = 'toast:after-reload';

type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds; the provider's default (5000) when omitted. */
  duration?: number;
}

interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

let toasts: ToastItem[] = [];
let nextId = 0;
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function emit(next: ToastItem[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  const id = String(++nextId);
  emit([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

export function dismissToast(id?: string): void {
  emit(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
  for (const t of toasts) {
    if (t.open || removalTimers.has(t.id)) continue;
    removalTimers.set(
      t.id,
      setTimeout(() => {
        removalTimers.delete(t.id);
        emit(toasts.filter((item) => item.id !== t.id));
      }, REMOVE_DELAY_MS),
    );
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, () => toasts);
}

/**
 * Shows a toast and then loads `url` as a full page (SPEC: login and registration reload to /dashboard).
 * The toast is carried across the reload in sessionStorage so the person still reads it.
 */
export function toastThenNavigate(input: ToastInput, url: string): void {
  toast(input);
  try {
    sessionStorage.setItem(CARRY_OVER_KEY, JSON.stringify(input));
  } catch {
    // Storage unavailable (private mode quotas): the toast is simply not carried over.
  }
  window.location.assign(url);
}

/** Shows a toast left by `toastThenNavigate` before the reload, once. */
export function showCarriedOverToast(): void {
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(CARRY_OVER_KEY);
    sessionStorage.removeItem(CARRY_OVER_KEY);
  } catch {
    return;
  }
  if (!raw) return;
  try {
    const input = JSON.parse(raw) as Partial<ToastInput>;
    if (typeof input.title !== 'string') return;
    toast({
      title: input.title,
      description: typeof input.description === 'string' ? input.description : undefined,
      variant: input.variant === 'destructive' ? 'destructive' : 'default',
    });
  } catch {
    // A malformed entry is dropped.
  }
}

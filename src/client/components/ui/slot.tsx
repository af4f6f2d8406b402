import { cloneElement, isValidElement, type HTMLAttributes, type ReactNode, type Ref } from 'react';
import { cn } from '@client/lib/utils';

type SlotProps = HTMLAttributes<HTMLElement> & { children?: ReactNode; ref?: Ref<HTMLElement> };
type AnyProps = Record<string, unknown>;

/**
 * Renders its one child with the slot's props merged in, as Radix's Slot does: the child's own
 * props win, except that both event handlers run (the child's first), classes are joined, styles
 * merged and both refs set. Ours, so that the sign-in page's buttons, labels and fields do not
 * pull Radix's primitive layer into the first download (issue 27, decision 163).
 */
export function Slot({ children, ...slotProps }: SlotProps) {
  if (!isValidElement<AnyProps>(children)) return null;
  const own = children.props;
  const merged: AnyProps = { ...slotProps, ...own };
  for (const [key, value] of Object.entries(slotProps as AnyProps)) {
    const childValue = own[key];
    if (/^on[A-Z]/.test(key) && typeof value === 'function' && typeof childValue === 'function') {
      merged[key] = (...args: unknown[]) => {
        const result: unknown = childValue(...args);
        value(...args);
        return result;
      };
    }
  }
  if (slotProps.style || own.style) merged.style = { ...slotProps.style, ...(own.style as object | undefined) };
  if (slotProps.className || own.className) merged.className = cn(slotProps.className, own.className as string | undefined);
  if (slotProps.ref && own.ref) merged.ref = composeRefs(slotProps.ref, own.ref as Ref<HTMLElement>);
  return cloneElement(children, merged);
}

function composeRefs(...refs: Ref<HTMLElement>[]) {
  return (node: HTMLElement | null) => {
    const cleanups = refs.map((ref) => {
      if (typeof ref === 'function') return ref(node);
      if (ref) ref.current = node;
      return undefined;
    });
    return () => {
      cleanups.forEach((cleanup, i) => {
        const ref = refs[i];
        if (typeof cleanup === 'function') cleanup();
        else if (typeof ref === 'function') ref(null);
        else if (ref) ref.current = null;
      });
    };
  };
}

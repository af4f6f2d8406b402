import { useCallback, useRef, useState, type ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from './alert-dialog';
import { Button } from './button';
import { Spinner } from './spinner';

export interface ConfirmOptions {
  title: string;
  /** What happens, in a sentence or two; a money-moving action names the amount here (CONTRACT §21). */
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Deleting or moving money: the confirm button says so by its colour. */
  destructive?: boolean;
}

interface ConfirmDialogProps extends ConfirmOptions {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  /** The action is on its way: the buttons wait, the dialog stays. */
  pending?: boolean;
}

/**
 * THE product's confirmation (CONTRACT §21): never the browser's `window.confirm`, which a phone
 * shows as an unstyled sheet, tests cannot read, and which says nothing about money. An alert
 * dialog (focus trapped, Escape cancels, the cancel button takes the first focus), with a title, the
 * consequence and two labelled buttons.
 */
export function ConfirmDialog({ open, onOpenChange, onConfirm, pending, title, description, confirmLabel, cancelLabel = 'Cancel', destructive }: ConfirmDialogProps) {
  return (
    <AlertDialog open={open} onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription asChild>
            <div className="grid gap-2">{description}</div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>{cancelLabel}</AlertDialogCancel>
          {/* A plain button, not AlertDialogAction: the dialog stays open while the action runs. */}
          <Button variant={destructive ? 'destructive' : 'default'} onClick={onConfirm} disabled={pending}>
            {pending ? <Spinner label={`${confirmLabel}…`} /> : null}
            {confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * `window.confirm`'s place, as a promise: `const [dialog, confirm] = useConfirm()`, render `dialog`,
 * then `if (!(await confirm({...}))) return;`. For a question asked before an action; an action
 * that runs inside the dialog uses ConfirmDialog with `pending`.
 */
export function useConfirm(): [ReactNode, (options: ConfirmOptions) => Promise<boolean>] {
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const settle = useRef<((answer: boolean) => void) | null>(null);
  const answer = (value: boolean) => {
    settle.current?.(value);
    settle.current = null;
    setOptions(null);
  };
  const confirm = useCallback(
    (next: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        settle.current?.(false);
        settle.current = resolve;
        setOptions(next);
      }),
    [],
  );
  const dialog = options ? (
    <ConfirmDialog open onOpenChange={(open) => (open ? undefined : answer(false))} onConfirm={() => answer(true)} {...options} />
  ) : null;
  return [dialog, confirm];
}

import { Trash2 } from 'lucide-react';
import { AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle } from '@client/components/ui/alert-dialog';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { toast } from '@client/lib/toast';
import { useDeleteSubmission } from './admin-queries';
import { ADMIN_TOASTS } from './admin-texts';

interface Props {
  target: { id: string; songTitle: string } | null;
  onOpenChange(open: boolean): void;
  onDeleted?(): void;
}

/** The delete confirmation (SPEC §2 "Other admin dialogs"). */
export function DeleteSubmissionDialog({ target, onOpenChange, onDeleted }: Props) {
  const remove = useDeleteSubmission();
  const title = target?.songTitle?.trim() || 'Untitled';
  return (
    <AlertDialog open={target !== null} onOpenChange={(open) => !remove.isPending && onOpenChange(open)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete Submission</AlertDialogTitle>
          <AlertDialogDescription className="break-words">
            Delete “{title}” and all of its files? This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() =>
              target &&
              remove.mutate(target.id, {
                onSuccess: () => {
                  toast(ADMIN_TOASTS.deleted);
                  onOpenChange(false);
                  onDeleted?.();
                },
                onError: () => toast(ADMIN_TOASTS.deleteFailed),
              })
            }
          >
            {remove.isPending ? <Spinner className="text-destructive-foreground" /> : <Trash2 aria-hidden />}
            Delete
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

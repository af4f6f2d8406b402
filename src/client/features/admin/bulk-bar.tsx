import { Tag, Trash2, UserRound, X } from 'lucide-react';
import { useState } from 'react';
import type { AdminSubmission } from '@shared/submission-schemas';
import { TAG_MAX_LENGTH } from '@shared/admin';
import { AlertDialog, AlertDialogAction, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle } from '@client/components/ui/alert-dialog';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';
import { errorMessage } from '@client/lib/api';
import { toast } from '@client/lib/toast';
import { useBulkAction, useTeam } from './admin-queries';
import { StatusChangeDialog } from './status-change-dialog';

const UNASSIGN = '__none__';

/** What to do with every selected submission at once: all or nothing on the server (CONTRACT §14). */
export function BulkBar({ selected, onClear }: { selected: AdminSubmission[]; onClear(): void }) {
  const [statusOpen, setStatusOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [tag, setTag] = useState('');
  const team = useTeam();
  const bulk = useBulkAction();
  const ids = selected.map((s) => s.id);
  const n = selected.length;
  const failed = () => toast({ title: 'Error', description: 'The change was not made. Please try again.', variant: 'destructive' });

  const assign = (value: string) =>
    bulk.mutate(
      { ids, action: 'assign', assigneeId: value === UNASSIGN ? null : value },
      { onSuccess: () => toast({ title: 'Assigned', description: `${n} submission(s) ${value === UNASSIGN ? 'unassigned' : `assigned to ${team.data?.find((m) => m.id === value)?.name ?? 'the team member'}`}.` }), onError: failed },
    );
  const changeTag = (add: boolean) => {
    const name = tag.trim().toLowerCase();
    if (!name) return;
    bulk.mutate(
      { ids, action: 'tag', ...(add ? { add: [name] } : { remove: [name] }) },
      {
        onSuccess: () => {
          setTag('');
          toast({ title: add ? 'Tag Added' : 'Tag Removed', description: `"${name}" on ${n} submission(s).` });
        },
        // The server says why, e.g. which submissions would pass the tag limit.
        onError: (error) => toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' }),
      },
    );
  };

  return (
    <div role="toolbar" aria-label="Bulk actions" className="flex flex-wrap items-center gap-2 border-b bg-primary/10 px-3 py-2 text-sm">
      <span className="font-medium tabular-nums" data-testid="bulk-count">
        {n} selected
      </span>
      <Button size="sm" onClick={() => setStatusOpen(true)} disabled={bulk.isPending}>
        Change status
      </Button>
      <Select value="" onValueChange={assign} disabled={bulk.isPending}>
        <SelectTrigger aria-label="Assign selected" className="h-8 w-40">
          <UserRound className="size-4" aria-hidden />
          <SelectValue placeholder="Assign to..." />
        </SelectTrigger>
        <SelectContent>
          {team.data?.map((m) => (
            <SelectItem key={m.id} value={m.id}>
              {m.name}
            </SelectItem>
          ))}
          <SelectItem value={UNASSIGN}>Unassigned</SelectItem>
        </SelectContent>
      </Select>
      <form
        className="flex items-center gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          changeTag(true);
        }}
      >
        <Tag className="size-4 text-muted-foreground" aria-hidden />
        <Input value={tag} onChange={(e) => setTag(e.target.value)} placeholder="tag" aria-label="Tag for selected" maxLength={TAG_MAX_LENGTH} className="h-8 w-28" />
        <Button type="submit" size="sm" variant="outline" disabled={!tag.trim() || bulk.isPending}>
          Add tag
        </Button>
        <Button type="button" size="sm" variant="ghost" disabled={!tag.trim() || bulk.isPending} onClick={() => changeTag(false)}>
          Remove tag
        </Button>
      </form>
      <Button size="sm" variant="ghost" className="text-destructive-soft hover:text-destructive-soft" onClick={() => setConfirmDelete(true)} disabled={bulk.isPending}>
        <Trash2 aria-hidden />
        Delete
      </Button>
      <Button size="sm" variant="ghost" className="ml-auto" onClick={onClear} aria-label="Clear selection">
        <X aria-hidden />
        Clear
      </Button>

      <StatusChangeDialog submissions={selected} open={statusOpen} onOpenChange={setStatusOpen} onDone={onClear} />
      <AlertDialog open={confirmDelete} onOpenChange={setConfirmDelete}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete {n} Submissions</AlertDialogTitle>
            <AlertDialogDescription>These submissions and their files will be removed for good. This cannot be undone.</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              className="bg-destructive text-white hover:bg-destructive/90"
              onClick={() =>
                bulk.mutate(
                  { ids, action: 'delete' },
                  {
                    onSuccess: () => {
                      toast({ title: 'Submissions Deleted', description: `${n} submission(s) and their files have been removed.` });
                      onClear();
                    },
                    onError: failed,
                  },
                )
              }
            >
              Delete
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

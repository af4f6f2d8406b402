import { FileText, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ADMIN_REVIEW_MAX } from '@shared/admin';
import { TEMPLATE_NAME_MAX, type ReviewTemplate } from '@shared/review-desk';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@client/components/ui/dialog';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Textarea } from '@client/components/ui/textarea';
import { errorMessage } from '@client/lib/api';
import { toast } from '@client/lib/toast';
import { useDeleteTemplate, useReviewTemplates, useSaveTemplate } from './admin-queries';

/** The team's review templates (CONTRACT §14): written once, chosen in the status dialog. */
export function ReviewTemplatesDialog() {
  const templates = useReviewTemplates();
  const save = useSaveTemplate();
  const remove = useDeleteTemplate();
  const [editing, setEditing] = useState<ReviewTemplate | null>(null);
  const [name, setName] = useState('');
  const [body, setBody] = useState('');
  const reset = () => {
    setEditing(null);
    setName('');
    setBody('');
  };
  return (
    <Dialog onOpenChange={(open) => !open && reset()}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className="h-9" title="Review templates">
          <FileText aria-hidden />
          {/* Labelled from small tablets up; on a phone the icon keeps its accessible name (issue 36). */}
          <span className="sr-only sm:not-sr-only">Templates</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Review Templates</DialogTitle>
          <DialogDescription>
            Reusable reviews for the status dialog. {'{artistName}'} and {'{songTitle}'} are filled in for each submission.
          </DialogDescription>
        </DialogHeader>
        <ul className="grid max-h-56 gap-1 overflow-y-auto">
          {templates.data?.length ? (
            templates.data.map((t) => (
              <li key={t.id} className="flex items-start gap-2 rounded-md border p-2 text-sm">
                <div className="min-w-0 flex-1">
                  <p className="font-medium">{t.name}</p>
                  <p className="line-clamp-2 text-xs text-muted-foreground">{t.body}</p>
                </div>
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={`Edit ${t.name}`}
                  onClick={() => {
                    setEditing(t);
                    setName(t.name);
                    setBody(t.body);
                  }}
                >
                  <Pencil aria-hidden />
                </Button>
                <Button variant="ghost" size="icon-sm" aria-label={`Delete ${t.name}`} className="text-destructive-soft" onClick={() => remove.mutate(t.id)}>
                  <Trash2 aria-hidden />
                </Button>
              </li>
            ))
          ) : (
            <li className="text-sm text-muted-foreground">No templates yet.</li>
          )}
        </ul>
        <form
          className="grid gap-2 border-t pt-3"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(
              { ...(editing ? { id: editing.id } : {}), name, body },
              {
                onSuccess: () => {
                  toast({ title: 'Template Saved', description: `"${name.trim()}" is ready to use.` });
                  reset();
                },
                onError: (error) => toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' }),
              },
            );
          }}
        >
          <Label htmlFor="template-name">{editing ? 'Edit template' : 'New template'}</Label>
          <Input id="template-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Name" maxLength={TEMPLATE_NAME_MAX} />
          <Textarea value={body} onChange={(e) => setBody(e.target.value)} rows={4} maxLength={ADMIN_REVIEW_MAX} aria-label="Template text" placeholder="Hi {artistName}, thank you for sending us {songTitle}..." />
          <div className="flex justify-end gap-2">
            {editing ? (
              <Button type="button" variant="ghost" onClick={reset}>
                Cancel
              </Button>
            ) : null}
            <Button type="submit" disabled={!name.trim() || !body.trim() || save.isPending}>
              Save template
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

import { SquarePen } from 'lucide-react';
import { useState } from 'react';
import { UserAvatar } from '@client/components/user-avatar';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@client/components/ui/dialog';
import { partyName } from '@client/entities/message/message-format';
import { useContacts } from '@client/entities/message/message-queries';
import { LoadingBlock } from '@client/components/loading-block';

/**
 * How a team member starts a conversation with another (artists write to the whole team instead,
 * CONTRACT §18): pick one from GET /api/messages/contacts; their (empty) thread opens and the
 * first message starts it.
 */
export function NewConversationDialog({ onChoose, label = 'New message' }: { onChoose(userId: string): void; label?: string }) {
  const [open, setOpen] = useState(false);
  const contacts = useContacts();
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <SquarePen aria-hidden />
          {label}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Message a team member</DialogTitle>
          <DialogDescription>Choose who on the team you would like to write to.</DialogDescription>
        </DialogHeader>
        {contacts.isLoading ? (
          <LoadingBlock label="Loading the label team" className="py-6" />
        ) : contacts.isError ? (
          <p role="alert" className="text-sm text-destructive-soft">
            The label team could not be loaded. Please try again.
          </p>
        ) : (contacts.data ?? []).length === 0 ? (
          <p className="text-sm text-muted-foreground">There is no one on the label team to write to yet.</p>
        ) : (
          <ul className="-mx-2 grid max-h-80 gap-1 overflow-y-auto">
            {contacts.data!.map((contact) => {
              const name = partyName(contact);
              return (
                <li key={contact.id}>
                  <button
                    type="button"
                    className="flex w-full cursor-pointer items-center gap-3 rounded-md px-2 py-2 text-left outline-none hover:bg-accent focus-visible:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
                    onClick={() => {
                      setOpen(false);
                      onChoose(contact.id);
                    }}
                  >
                    <UserAvatar imageUrl={contact.profileImageUrl} name={name} />
                    <span className="flex min-w-0 flex-col">
                      <span className="truncate text-sm font-medium">{name}</span>
                      <span className="text-xs text-muted-foreground">Label Team</span>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}

import { MessageSquare } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { PublicProfile } from '@shared/auth';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@client/components/ui/dialog';
import { Spinner } from '@client/components/ui/spinner';
import { Textarea } from '@client/components/ui/textarea';
import { useMessageComposer } from './message-composer';

type MessageRecipient = Pick<PublicProfile, 'id' | 'firstName' | 'lastName' | 'artistName'>;

/** SPEC §2 (admin submission modal): the user's name, or the artist name when it is absent. */
function recipientName(recipient: MessageRecipient, submissionArtistName?: string | null): string {
  const fullName = [recipient.firstName, recipient.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return fullName || recipient.artistName?.trim() || submissionArtistName?.trim() || 'Artist';
}

interface SendMessageDialogProps {
  recipient: MessageRecipient;
  /** The submission the message is about; the server checks it is the recipient's. */
  submissionId?: string | null;
  /** The submission's artist name, named when the user has no name of their own. */
  artistName?: string | null;
  /** The control that opens the dialog; a 'Message {name}' button when omitted; null for none (controlled use). */
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?(open: boolean): void;
}

/**
 * The admin's message dialog of the submission modal: writes to the submitting user with the
 * submission linked. Enter sends, Shift+Enter starts a new line; it closes once the message is sent.
 */
export function SendMessageDialog({ recipient, submissionId, artistName, trigger, open, onOpenChange }: SendMessageDialogProps) {
  const [innerOpen, setInnerOpen] = useState(false);
  const isOpen = open ?? innerOpen;
  const name = recipientName(recipient, artistName);

  const setOpen = (next: boolean) => {
    if (open === undefined) setInnerOpen(next);
    onOpenChange?.(next);
  };
  const composer = useMessageComposer({
    toUserId: recipient.id,
    submissionId,
    sentDescription: `Your message to ${name} has been sent.`,
    onSent: () => setOpen(false),
  });

  return (
    <Dialog open={isOpen} onOpenChange={setOpen}>
      {trigger === undefined ? (
        <DialogTrigger asChild>
          <Button variant="outline" size="sm" className="max-w-full">
            <MessageSquare aria-hidden />
            <span className="truncate">Message {name}</span>
          </Button>
        </DialogTrigger>
      ) : trigger ? (
        <DialogTrigger asChild>{trigger}</DialogTrigger>
      ) : null}
      <DialogContent className="max-w-lg">
        <form className="grid gap-4" onSubmit={composer.onSubmit}>
          <DialogHeader>
            <DialogTitle className="break-words">Send Message to {name}</DialogTitle>
            <DialogDescription>
              {submissionId ? 'About this submission. ' : ''}
              {name} will see it in their Messages.
            </DialogDescription>
          </DialogHeader>
          <Textarea
            {...composer.textareaProps}
            placeholder="Type your message..."
            rows={5}
            autoFocus
            className="resize-y"
          />
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" disabled={!composer.canSend}>
              {composer.isPending ? <Spinner className="text-primary-foreground" /> : <MessageSquare aria-hidden />}
              Send Message
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

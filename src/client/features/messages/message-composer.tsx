import { SendHorizontal } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { Textarea } from '@client/components/ui/textarea';
import { toast } from '@client/lib/toast';
import { cn } from '@client/lib/utils';
import { useSendMessage } from './message-queries';
import { MESSAGE_MAX_LENGTH } from '@shared/messages';

/** SPEC §8: the texts of a message sent or not. */
export const MESSAGE_SENT_TOAST = { title: 'Message Sent' } as const;
export const MESSAGE_FAILED_TOAST = { title: 'Error', description: 'Failed to send message. Please try again.', variant: 'destructive' } as const;

/** SPEC §2: Enter sends, Shift+Enter starts a new line (and Enter while composing with an IME is the IME's). */
export function isSendKey(event: KeyboardEvent<HTMLTextAreaElement>): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing;
}

interface MessageComposerProps {
  /** The recipient; null when no conversation is chosen, which blocks sending (SPEC §5). */
  toUserId: string | null;
  submissionId?: string | null;
  placeholder?: string;
  className?: string;
  onSent?: () => void;
  autoFocus?: boolean;
}

/** The message input with its send button. Blank content is never sent; the server trims it too. */
export function MessageComposer({ toUserId, submissionId, placeholder = 'Type your message...', className, onSent, autoFocus }: MessageComposerProps) {
  const [content, setContent] = useState('');
  const send = useSendMessage();
  const canSend = toUserId !== null && content.trim().length > 0 && !send.isPending;

  const submit = () => {
    if (!canSend) return;
    send.mutate(
      { toUserId, content: content.trim(), ...(submissionId ? { submissionId } : {}) },
      {
        onSuccess: () => {
          setContent('');
          toast(MESSAGE_SENT_TOAST);
          onSent?.();
        },
        // The text stays in the box so nothing typed is lost.
        onError: () => toast(MESSAGE_FAILED_TOAST),
      },
    );
  };

  return (
    <form
      className={cn('flex items-end gap-2', className)}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="grid min-w-0 flex-1 gap-1">
        <Textarea
          aria-label="Message"
          value={content}
          onChange={(event) => setContent(event.target.value)}
          onKeyDown={(event) => {
            if (!isSendKey(event)) return;
            event.preventDefault();
            submit();
          }}
          placeholder={placeholder}
          maxLength={MESSAGE_MAX_LENGTH}
          rows={2}
          disabled={toUserId === null}
          autoFocus={autoFocus}
          className="max-h-40 min-h-16 resize-none"
        />
        <p className="hidden text-xs text-muted-foreground sm:block">Enter to send, Shift+Enter for a new line</p>
      </div>
      <Button type="submit" size="icon" disabled={!canSend} aria-label="Send message" className="mb-0 sm:mb-5">
        {send.isPending ? <Spinner className="text-primary-foreground" /> : <SendHorizontal aria-hidden />}
      </Button>
    </form>
  );
}

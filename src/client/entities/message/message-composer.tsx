import { SendHorizontal } from 'lucide-react';
import { useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { Textarea } from '@client/components/ui/textarea';
import { toast } from '@client/lib/toast';
import { cn } from '@client/lib/utils';
import { useSendMessage } from '@client/entities/message/message-queries';
import { MESSAGE_MAX_LENGTH } from '@shared/messages';

/** SPEC §8: the texts of a message sent or not. */
const MESSAGE_SENT_TOAST = { title: 'Message Sent' } as const;
const MESSAGE_FAILED_TOAST = { title: 'Error', description: 'Failed to send message. Please try again.', variant: 'destructive' } as const;

/** SPEC §2: Enter sends, Shift+Enter starts a new line (and Enter while composing with an IME is the IME's). */
function isSendKey(event: KeyboardEvent<HTMLTextAreaElement>): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing;
}

interface ComposerTarget {
  /** The recipient; null when no conversation is chosen, which blocks sending (SPEC §5). */
  toUserId: string | null;
  /** The submission the message is about; the server checks it is the recipient's. */
  submissionId?: string | null | undefined;
  /** What the "Message Sent" toast adds, if anything. */
  sentDescription?: string | undefined;
  onSent?: (() => void) | undefined;
}

/**
 * What every message input shares, whatever it looks like: the text, sending it trimmed (blank
 * text is never sent; the server trims too), the SPEC §8 toasts, and Enter to send. On failure
 * the text stays in the box so nothing typed is lost.
 */
export function useMessageComposer({ toUserId, submissionId, sentDescription, onSent }: ComposerTarget) {
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
          toast(sentDescription ? { ...MESSAGE_SENT_TOAST, description: sentDescription } : MESSAGE_SENT_TOAST);
          onSent?.();
        },
        onError: () => toast(MESSAGE_FAILED_TOAST),
      },
    );
  };

  return {
    canSend,
    isPending: send.isPending,
    submit,
    onSubmit: (event: FormEvent) => {
      event.preventDefault();
      submit();
    },
    /** Props for the Textarea: its value, and Enter to send. */
    textareaProps: {
      'aria-label': 'Message',
      value: content,
      onChange: (event: ChangeEvent<HTMLTextAreaElement>) => setContent(event.target.value),
      onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => {
        if (!isSendKey(event)) return;
        event.preventDefault();
        submit();
      },
      maxLength: MESSAGE_MAX_LENGTH,
    },
  };
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

/** The chat's message input with its send button (SPEC §2 Messages screen). */
export function MessageComposer({ toUserId, submissionId, placeholder = 'Type your message...', className, onSent, autoFocus }: MessageComposerProps) {
  const composer = useMessageComposer({ toUserId, submissionId, onSent });

  return (
    <form className={cn('flex items-end gap-2', className)} onSubmit={composer.onSubmit}>
      <div className="grid min-w-0 flex-1 gap-1">
        <Textarea
          {...composer.textareaProps}
          placeholder={placeholder}
          rows={2}
          disabled={toUserId === null}
          autoFocus={autoFocus}
          className="max-h-40 min-h-16 resize-none"
        />
        <p className="hidden text-xs text-muted-foreground sm:block">Enter to send, Shift+Enter for a new line</p>
      </div>
      <Button type="submit" size="icon" disabled={!composer.canSend} aria-label="Send message" className="mb-0 sm:mb-5">
        {composer.isPending ? <Spinner className="text-primary-foreground" /> : <SendHorizontal aria-hidden />}
      </Button>
    </form>
  );
}

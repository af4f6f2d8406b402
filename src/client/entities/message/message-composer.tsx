import { Paperclip, SendHorizontal, X } from 'lucide-react';
import { useRef, useState, type ChangeEvent, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { Textarea } from '@client/components/ui/textarea';
import { toast } from '@client/lib/toast';
import { cn } from '@client/lib/utils';
import { uploadAttachment, useSendMessage } from '@client/entities/message/message-queries';
import { errorMessage } from '@client/lib/api';
import { ATTACHMENT_TEXTS, MESSAGE_MAX_LENGTH, MESSAGE_TEXTS } from '@shared/messages';
import { FILE_LIMITS } from '@shared/submissions';

/** What the file chooser offers; the server judges the bytes (CONTRACT §18). */
const ATTACHMENT_ACCEPT = 'image/jpeg,image/png,image/webp,audio/*,video/mp4,video/quicktime,video/webm,application/pdf';

/** A file being attached: uploading, ready (its object path) or refused (why). */
interface PendingAttachment {
  key: number;
  name: string;
  objectPath: string | null;
  error: string | null;
}

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
  const [attachments, setAttachments] = useState<PendingAttachment[]>([]);
  const nextKey = useRef(0);
  const send = useSendMessage();
  const uploading = attachments.some((a) => a.objectPath === null && a.error === null);
  const ready = attachments.flatMap((a) => (a.objectPath ? [a.objectPath] : []));
  const canSend = toUserId !== null && content.trim().length > 0 && !send.isPending && !uploading;

  const attach = (files: FileList | null) => {
    let room = FILE_LIMITS.maxAttachments - attachments.filter((a) => a.error === null).length;
    for (const file of Array.from(files ?? [])) {
      const key = nextKey.current++;
      const update = (change: Partial<PendingAttachment>) =>
        setAttachments((list) => list.map((a) => (a.key === key ? { ...a, ...change } : a)));
      const error = room <= 0 ? MESSAGE_TEXTS.tooManyAttachments : file.size > FILE_LIMITS.attachmentBytes ? ATTACHMENT_TEXTS.tooLarge : null;
      if (error === null) room -= 1;
      setAttachments((list) => [...list, { key, name: file.name, objectPath: null, error }]);
      if (error) continue;
      uploadAttachment(file).then(
        (objectPath) => update({ objectPath }),
        (failure: unknown) => update({ error: errorMessage(failure) }),
      );
    }
  };

  const submit = () => {
    if (!canSend) return;
    send.mutate(
      { toUserId, content: content.trim(), ...(submissionId ? { submissionId } : {}), ...(ready.length > 0 ? { attachments: ready } : {}) },
      {
        onSuccess: () => {
          setContent('');
          setAttachments([]);
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
    attachments,
    attach,
    detach: (key: number) => setAttachments((list) => list.filter((a) => a.key !== key)),
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
  /** Shown above the text: what the message will be about (a submission). */
  about?: ReactNode;
}

/** The chat's message input with its send button and files (SPEC §2 Messages screen, CONTRACT §18). */
export function MessageComposer({ toUserId, submissionId, placeholder = 'Type your message...', className, onSent, autoFocus, about }: MessageComposerProps) {
  const composer = useMessageComposer({ toUserId, submissionId, onSent });
  const fileInput = useRef<HTMLInputElement>(null);

  return (
    <form className={cn('grid gap-2', className)} onSubmit={composer.onSubmit}>
      {about}
      {composer.attachments.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label="Files to send">
          {composer.attachments.map((a) => (
            <li
              key={a.key}
              data-testid="pending-attachment"
              className={cn(
                'flex max-w-full items-center gap-1 rounded-md border px-2 py-1 text-xs',
                a.error ? 'border-destructive/60 text-destructive-soft' : 'text-muted-foreground',
              )}
            >
              {a.objectPath === null && a.error === null ? <Spinner className="size-3" aria-label="Uploading" /> : <Paperclip className="size-3" aria-hidden />}
              <span className="max-w-40 truncate">{a.name}</span>
              {a.error ? <span className="truncate">: {a.error}</span> : null}
              <button type="button" className="cursor-pointer rounded p-0.5 hover:bg-accent" onClick={() => composer.detach(a.key)} aria-label={`Remove ${a.name}`}>
                <X className="size-3" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex items-end gap-2">
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          accept={ATTACHMENT_ACCEPT}
          data-testid="attachment-input"
          onChange={(event) => {
            composer.attach(event.target.files);
            event.target.value = '';
          }}
        />
        <Button
          type="button"
          variant="ghost"
          size="icon"
          aria-label="Attach files"
          title={`Attach up to ${FILE_LIMITS.maxAttachments} files: images, audio, video or PDF`}
          disabled={toUserId === null}
          onClick={() => fileInput.current?.click()}
          className="mb-0 sm:mb-5"
        >
          <Paperclip aria-hidden />
        </Button>
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
      </div>
    </form>
  );
}

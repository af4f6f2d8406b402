import { FileText } from 'lucide-react';
import { formatLongDateTime } from '@client/lib/format';
import { cn } from '@client/lib/utils';
import { StatusBadge } from '@client/entities/submission/status-badge';
import type { Message, MessageAttachment } from '@shared/messages';
import { formatMessageTime, partyName } from './message-format';
import { AudioPlayer } from '@client/entities/submission/audio-player';

/**
 * One message of a conversation as the Messages screen and the desk's conversation panel show it:
 * the team's signature, the submission it names, its text, its files and its time.
 */
export function MessageBubble({
  message,
  mine,
  signed,
  submissionHref,
}: {
  message: Message;
  mine: boolean;
  signed: boolean;
  submissionHref(id: string): string;
}) {
  return (
    <li className={cn('flex flex-col gap-1', mine ? 'items-end' : 'items-start')} data-testid="chat-message">
      {signed ? (
        <span className="px-1 text-xs font-medium text-muted-foreground" data-testid="chat-signature">
          {partyName(message.fromUser)} · Label team
        </span>
      ) : null}
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-3.5 py-2 text-sm whitespace-pre-wrap wrap-anywhere sm:max-w-[75%]',
          mine ? 'rounded-br-md bg-primary text-primary-foreground' : 'rounded-bl-md bg-secondary text-secondary-foreground',
        )}
      >
        {message.submission ? (
          <a
            href={submissionHref(message.submission.id)}
            className="mb-1.5 flex items-center gap-2 rounded-md bg-background/15 px-2 py-1 text-xs font-medium underline-offset-2 hover:underline"
            data-testid="message-submission"
          >
            <span className="min-w-0 truncate">About: {message.submission.songTitle || 'Untitled'}</span>
            <StatusBadge status={message.submission.status} />
          </a>
        ) : null}
        {message.content}
      </div>
      {message.attachments.length > 0 ? (
        <ul className={cn('grid max-w-[85%] gap-1.5 sm:max-w-[75%]', mine ? 'justify-items-end' : 'justify-items-start')} aria-label="Files">
          {message.attachments.map((file) => (
            <li key={file.objectPath} className="max-w-full">
              <AttachmentView file={file} />
            </li>
          ))}
        </ul>
      ) : null}
      <time dateTime={message.createdAt} title={formatLongDateTime(message.createdAt)} className="px-1 text-xs text-muted-foreground tabular-nums">
        {formatMessageTime(message.createdAt)}
      </time>
    </li>
  );
}

/** CONTRACT §18: images inline, audio and video with a player, anything else as a download. */
function AttachmentView({ file }: { file: MessageAttachment }) {
  const name = file.fileName || 'File';
  if (file.contentType.startsWith('image/')) {
    return (
      <a href={file.objectPath} target="_blank" rel="noreferrer" data-testid="attachment-image">
        <img src={file.objectPath} alt={name} loading="lazy" className="max-h-48 max-w-full rounded-lg border object-contain" />
      </a>
    );
  }
  if (file.contentType.startsWith('audio/')) {
    // The product's player (SPEC §2's skips, volume, download), not the browser's bare one (issue 36).
    return (
      <figure className="grid w-80 max-w-full gap-1" data-testid="attachment-audio">
        <figcaption className="truncate text-xs font-medium">{name}</figcaption>
        <AudioPlayer src={file.objectPath} downloadName={name} />
      </figure>
    );
  }
  if (file.contentType.startsWith('video/')) {
    return <video controls preload="metadata" src={file.objectPath} aria-label={name} className="max-h-60 max-w-full rounded-lg border" data-testid="attachment-video" />;
  }
  return (
    <a
      href={file.objectPath}
      download={name}
      className="flex items-center gap-2 rounded-lg border bg-card px-3 py-2 text-sm hover:bg-accent"
      data-testid="attachment-download"
    >
      <FileText className="size-4 shrink-0" aria-hidden />
      <span className="min-w-0 truncate">{name}</span>
    </a>
  );
}

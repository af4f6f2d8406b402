import { MessagesSquare } from 'lucide-react';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { LoadingBlock } from '@client/components/loading-block';
import { useAuth } from '@client/lib/auth';
import { MessageBubble } from '@client/entities/message/message-bubble';
import { MessageComposer } from '@client/entities/message/message-composer';
import { useThread } from '@client/entities/message/message-queries';
import { useOpenThread } from '@client/entities/message/open-thread';
import { conversationHref, type Message } from '@shared/messages';

/** How many of the latest messages the desk shows; the rest are one click away in Messages. */
const DESK_CONVERSATION_MESSAGES = 20;

const submissionHref = (id: string) => `/admin?submission=${encodeURIComponent(id)}`;

/**
 * CONTRACT §18 "the desk's details show the conversation beside the submission": the artist's
 * team conversation (its latest messages, the team's replies signed), a reply box that answers
 * the team conversation about this submission, and a link to the whole thread in Messages.
 * It reads the thread as Messages does (GET /api/messages/{artistId}) and, like that read, does
 * not mark it read: answering does, on the server, as from Messages. The new_message push
 * refreshes every messages query, this thread's among them.
 */
export function DeskConversation({ artistId, submissionId }: { artistId: string; submissionId: string }) {
  const { user } = useAuth();
  const thread = useThread(artistId);
  useOpenThread(artistId);
  const newest = thread.data?.pages[0]?.messages;
  const messages = useMemo<Message[]>(() => (newest ?? []).slice(-DESK_CONVERSATION_MESSAGES), [newest]);
  const hidden = (newest?.length ?? 0) > messages.length || thread.hasNextPage;

  // The newest message in view on open and on arrival.
  const scroller = useRef<HTMLDivElement>(null);
  const lastId = messages.at(-1)?.id;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lastId]);

  return (
    <section className="grid min-w-0 gap-2 rounded-lg border" aria-labelledby="desk-conversation-heading" data-testid="desk-conversation">
      <header className="flex items-center gap-2 border-b px-3 py-2">
        <MessagesSquare className="size-4 text-muted-foreground" aria-hidden />
        <h3 id="desk-conversation-heading" className="text-sm font-semibold">
          Conversation
        </h3>
        <Button asChild variant="link" size="sm" className="ml-auto h-auto px-0">
          <Link href={conversationHref(artistId, submissionId)} data-testid="desk-conversation-link">
            Open in Messages
          </Link>
        </Button>
      </header>
      <div ref={scroller} className="max-h-80 min-h-24 overflow-y-auto px-3" data-testid="chat-messages">
        {thread.isLoading ? (
          <LoadingBlock label="Loading messages" className="h-24" />
        ) : thread.isError ? (
          <p role="alert" className="py-6 text-center text-sm text-destructive-soft">
            This conversation is not available.
          </p>
        ) : messages.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No messages yet. Write to the artist below.</p>
        ) : (
          <>
            {hidden ? <p className="pt-1 pb-2 text-center text-xs text-muted-foreground">Earlier messages are in Messages.</p> : null}
            <ol className="grid gap-3 pb-2" aria-label="Messages">
              {messages.map((message) => (
                <MessageBubble
                  key={message.id}
                  message={message}
                  mine={message.fromUserId === user?.id}
                  // The team's replies are signed (CONTRACT §18), as in Messages.
                  signed={message.fromUserId !== user?.id && message.fromUser.role === 'admin'}
                  submissionHref={submissionHref}
                />
              ))}
            </ol>
          </>
        )}
      </div>
      <MessageComposer
        toUserId={thread.isError ? null : artistId}
        submissionId={submissionId}
        placeholder="Reply to the artist..."
        className="border-t p-3"
      />
    </section>
  );
}

import { ArrowLeft, MessageCircle, X } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import type { PublicProfile } from '@shared/auth';
import { UserAvatar } from '@client/components/user-avatar';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { cn } from '@client/lib/utils';
import { partyName } from '@client/entities/message/message-format';
import { MessageBubble } from '@client/entities/message/message-bubble';
import { MessageComposer } from '@client/entities/message/message-composer';
import { useMarkThreadRead, useThread } from '@client/entities/message/message-queries';
import { isWaitingFor, TEAM_CONVERSATION_ID, type Message } from '@shared/messages';
import { StatusBadge } from '@client/entities/submission/status-badge';
import { LoadingBlock } from '@client/components/loading-block';

interface ChatPaneProps {
  currentUser: { id: string; role: PublicProfile['role'] };
  /** The submission a new message is about (`&submission=` of the address), or null. */
  aboutSubmissionId: string | null;
  /** Stops naming that submission. */
  onClearAbout(): void;
  /** The other party of the chosen conversation, or null when none is chosen. */
  otherUserId: string | null;
  /** Known from the conversations list, so the header shows at once. */
  knownUser: PublicProfile | undefined;
  /** The newest unread message from them according to the conversations list, or null. */
  latestUnreadId: string | null;
  /** Small screens show the list or the chat; this returns to the list. */
  onBack(): void;
  className?: string;
}

/** SPEC §2: the chosen conversation (400 px tall, newest message in view) and the message input. */
export function ChatPane({ currentUser, otherUserId, knownUser, latestUnreadId, aboutSubmissionId, onClearAbout, onBack, className }: ChatPaneProps) {
  const frame = cn('flex min-w-0 flex-col rounded-xl border bg-card', className);
  if (otherUserId === null) {
    return (
      <section aria-label="Chat" className={frame}>
        {/* The height of a thread's header and messages, so the pane keeps its size whether or not one is chosen. */}
        <div className="flex h-[457px] flex-col items-center justify-center gap-2 p-6 text-center">
          <span className="mb-1 flex size-12 items-center justify-center rounded-full bg-primary/15 text-primary-soft">
            <MessageCircle className="size-6" aria-hidden />
          </span>
          <h2 className="font-semibold">Select a conversation</h2>
          <p className="text-sm text-muted-foreground">Choose a conversation from the left to start messaging</p>
        </div>
        <MessageComposer toUserId={null} className="border-t p-4" />
      </section>
    );
  }
  return (
    <OpenThread
      key={otherUserId}
      currentUser={currentUser}
      aboutSubmissionId={aboutSubmissionId}
      onClearAbout={onClearAbout}
      otherUserId={otherUserId}
      knownUser={knownUser}
      latestUnreadId={latestUnreadId}
      onBack={onBack}
      className={frame}
    />
  );
}

function OpenThread({
  currentUser,
  aboutSubmissionId,
  onClearAbout,
  otherUserId,
  knownUser,
  latestUnreadId,
  onBack,
  className,
}: Omit<ChatPaneProps, 'otherUserId'> & { otherUserId: string }) {
  const thread = useThread(otherUserId);
  const pages = thread.data?.pages;
  const other = pages?.[0]?.user ?? knownUser;
  const messages = useMemo<Message[]>(() => (pages ? [...pages].reverse().flatMap((p) => p.messages) : []), [pages]);
  const name = other ? partyName(other) : '';

  const currentUserId = currentUser.id;
  const newestUnreadInThread = messages.findLast((m) => isWaitingFor(m, currentUser))?.id;
  useMarkReadWhileVisible(otherUserId, newestUnreadInThread ?? latestUnreadId);

  // Newest message in view on open and on arrival; loading older ones keeps the reader's place.
  const scroller = useRef<HTMLDivElement>(null);
  const keepPlace = useRef<{ height: number; top: number } | null>(null);
  const firstId = messages[0]?.id;
  const lastId = messages.at(-1)?.id;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const place = keepPlace.current;
    keepPlace.current = null;
    el.scrollTop = place ? el.scrollHeight - place.height + place.top : el.scrollHeight;
  }, [firstId, lastId]);

  const loadOlder = () => {
    const el = scroller.current;
    if (el) keepPlace.current = { height: el.scrollHeight, top: el.scrollTop };
    void thread.fetchNextPage();
  };

  return (
    <section aria-label={name ? `Conversation with ${name}` : 'Conversation'} className={className}>
      <header className="flex min-h-14 items-center gap-3 border-b px-4 py-2">
        <Button variant="ghost" size="icon-sm" className="-ml-2 lg:hidden" onClick={onBack} aria-label="All conversations">
          <ArrowLeft aria-hidden />
        </Button>
        {other ? (
          <>
            <UserAvatar imageUrl={other.profileImageUrl} name={name} className="size-8" />
            <h2 className="min-w-0 truncate font-semibold" data-testid="chat-title">
              {name}
            </h2>
            {other.role === 'admin' && other.id !== TEAM_CONVERSATION_ID ? (
              <Badge variant="secondary" className="shrink-0">
                Label Team
              </Badge>
            ) : null}
          </>
        ) : null}
      </header>

      <div ref={scroller} className="h-[400px] overflow-y-auto px-4 py-4" data-testid="chat-messages">
        {thread.isLoading ? (
          <LoadingBlock label="Loading messages" className="h-full" />
        ) : thread.isError ? (
          <p role="alert" className="flex h-full items-center justify-center text-center text-sm text-destructive-soft">
            This conversation is not available.
          </p>
        ) : messages.length === 0 ? (
          <div className="flex h-full flex-col items-center justify-center gap-1 text-center">
            <p className="font-medium">No messages yet</p>
            <p className="text-sm text-muted-foreground">Send a message to start the conversation.</p>
          </div>
        ) : (
          <>
            {thread.hasNextPage ? (
              <div className="mb-3 flex justify-center">
                <Button variant="ghost" size="sm" onClick={loadOlder} disabled={thread.isFetchingNextPage}>
                  {thread.isFetchingNextPage ? <Spinner /> : null}
                  Load earlier messages
                </Button>
              </div>
            ) : null}
            <ol className="grid gap-3" aria-label="Messages">
              {messages.map((message) => (
                <MessageBubble
                  key={message.id}
                  message={message}
                  mine={message.fromUserId === currentUserId}
                  // The team's replies are signed (CONTRACT §18): to the artist, and to the team itself.
                  signed={message.fromUserId !== currentUserId && message.fromUser.role === 'admin'}
                  submissionHref={(id) => (currentUser.role === 'admin' ? `/admin?submission=${encodeURIComponent(id)}` : `/dashboard?submission=${encodeURIComponent(id)}`)}
                />
              ))}
            </ol>
          </>
        )}
      </div>

      <MessageComposer
        key={otherUserId}
        toUserId={thread.isError ? null : otherUserId}
        submissionId={aboutSubmissionId}
        about={aboutSubmissionId ? <AboutSubmission id={aboutSubmissionId} team={currentUser.role === 'admin'} onClear={onClearAbout} /> : null}
        className="border-t p-4"
      />
    </section>
  );
}

/** The submission a new message will be about, with a way to stop naming it. */
function AboutSubmission({ id, team, onClear }: { id: string; team: boolean; onClear(): void }) {
  const path = team ? `/api/admin/submissions/${encodeURIComponent(id)}` : `/api/submissions/${encodeURIComponent(id)}`;
  const { data } = useQuery<{ songTitle: string | null; status: string }>({ queryKey: [path] });
  return (
    <div className="flex items-center gap-2 rounded-md border bg-muted/50 px-2 py-1 text-xs" data-testid="composer-about">
      <span className="min-w-0 truncate">About: {data ? data.songTitle?.trim() || 'Untitled' : 'your submission'}</span>
      {data ? <StatusBadge status={data.status} /> : null}
      <button type="button" onClick={onClear} className="ml-auto cursor-pointer rounded p-0.5 hover:bg-accent" aria-label="Do not name this submission">
        <X className="size-3" aria-hidden />
      </button>
    </div>
  );
}

/**
 * Marks the thread read while it is on screen and has an unread message for the current user:
 * once per newest unread message, so a failure is not retried in a loop.
 */
function useMarkReadWhileVisible(otherUserId: string, newestUnreadId: string | null): void {
  const visible = useSyncExternalStore(subscribeVisibility, () => document.visibilityState === 'visible');
  const { mutate } = useMarkThreadRead();
  const markedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!newestUnreadId || !visible || markedFor.current === newestUnreadId) return;
    markedFor.current = newestUnreadId;
    mutate(otherUserId);
  }, [otherUserId, newestUnreadId, visible, mutate]);
}

function subscribeVisibility(onChange: () => void): () => void {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}

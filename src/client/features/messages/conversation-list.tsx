import { MessagesSquare } from 'lucide-react';
import type { ReactNode } from 'react';
import { UserAvatar } from '@client/components/user-avatar';
import { Spinner } from '@client/components/ui/spinner';
import { cn } from '@client/lib/utils';
import type { Conversation, ConversationFilter } from '@shared/messages';
import { Button } from '@client/components/ui/button';
import { formatMessageTime, partyName } from '@client/entities/message/message-format';
import { LoadingBlock } from '@client/components/loading-block';

interface ConversationListProps {
  conversations: Conversation[];
  currentUserId: string;
  selectedUserId: string | null;
  onSelect(userId: string): void;
  isLoading: boolean;
  isError: boolean;
  /** More (older) conversations on the server: a "Load more" button ends the list. */
  hasMore?: boolean;
  isLoadingMore?: boolean;
  onLoadMore?(): void;
  /** Shown in the header (starting a conversation) and under the empty state. */
  action?: ReactNode;
  /** The empty state's line: what fills the list, fitting the action under it. */
  emptyHint: string;
  /** The team's views of its inbox: all, the artists whose latest submission is mine, or nobody's. */
  filter?: { value: ConversationFilter; onChange(filter: ConversationFilter): void } | undefined;
  className?: string;
}

const FILTER_LABELS: Record<ConversationFilter, string> = { all: 'All', mine: 'Mine', unassigned: 'Unassigned' };
const EMPTY_FILTERED: Record<ConversationFilter, string> = {
  all: 'No conversations yet',
  mine: 'No conversation with an artist assigned to you',
  unassigned: 'No conversation with an unassigned artist',
};

/** SPEC §2: the conversations, grouped by the other party, newest first; the list is 500 px tall. */
export function ConversationList({
  conversations,
  currentUserId,
  selectedUserId,
  onSelect,
  isLoading,
  isError,
  hasMore = false,
  isLoadingMore = false,
  onLoadMore,
  action,
  emptyHint,
  filter,
  className,
}: ConversationListProps) {
  const filtered = filter !== undefined && filter.value !== 'all';
  return (
    <section aria-labelledby="conversations-title" className={cn('flex min-w-0 flex-col rounded-xl border bg-card', className)}>
      <div className="flex min-h-14 items-center justify-between gap-2 border-b px-4 py-2">
        <h2 id="conversations-title" className="text-base font-semibold">
          Conversations
        </h2>
        {conversations.length > 0 || filtered ? action : null}
      </div>
      {filter ? (
        <div role="group" aria-label="Show conversations" className="flex gap-1 border-b px-3 py-2">
          {(Object.keys(FILTER_LABELS) as ConversationFilter[]).map((value) => (
            <Button
              key={value}
              size="sm"
              variant={filter.value === value ? 'secondary' : 'ghost'}
              aria-pressed={filter.value === value}
              onClick={() => filter.onChange(value)}
            >
              {FILTER_LABELS[value]}
            </Button>
          ))}
        </div>
      ) : null}
      {/* relative: the visually hidden "Unread:" labels are positioned inside the scrolling list, not below the page. */}
      <div className="relative h-[500px] overflow-y-auto">
        {isLoading ? (
          <LoadingBlock label="Loading conversations" className="h-full" />
        ) : isError ? (
          <p role="alert" className="p-6 text-center text-sm text-destructive-soft">
            Your conversations could not be loaded. Please reload the page.
          </p>
        ) : conversations.length === 0 && filtered ? (
          <p className="p-6 text-center text-sm text-muted-foreground">{EMPTY_FILTERED[filter.value]}</p>
        ) : conversations.length === 0 ? (
          <div className="flex h-full flex-col items-center justify-center gap-2 p-6 text-center">
            <span className="mb-1 flex size-12 items-center justify-center rounded-full bg-primary/15 text-primary-soft">
              <MessagesSquare className="size-6" aria-hidden />
            </span>
            <h3 className="font-semibold">No conversations yet</h3>
            <p className="max-w-xs text-sm text-muted-foreground">{emptyHint}</p>
            {action ? <div className="mt-3">{action}</div> : null}
          </div>
        ) : (
          <ul className="divide-y divide-border/70" aria-label="Conversations">
            {conversations.map((conversation) => (
              <li key={conversation.user.id}>
                <ConversationItem
                  conversation={conversation}
                  currentUserId={currentUserId}
                  currentIsTeam={filter !== undefined}
                  selected={conversation.user.id === selectedUserId}
                  onSelect={() => onSelect(conversation.user.id)}
                />
              </li>
            ))}
            {hasMore ? (
              <li className="flex justify-center p-3">
                <Button variant="outline" size="sm" onClick={onLoadMore} disabled={isLoadingMore}>
                  {isLoadingMore ? <Spinner aria-hidden /> : null}
                  {isLoadingMore ? 'Loading...' : 'Load more'}
                </Button>
              </li>
            ) : null}
          </ul>
        )}
      </div>
    </section>
  );
}

function ConversationItem({
  conversation,
  currentUserId,
  currentIsTeam,
  selected,
  onSelect,
}: {
  conversation: Conversation;
  currentUserId: string;
  currentIsTeam: boolean;
  selected: boolean;
  onSelect(): void;
}) {
  const { user, lastMessage, unreadCount, assignee } = conversation;
  const name = partyName(user);
  const mine = lastMessage.fromUserId === currentUserId;
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-current={selected ? 'true' : undefined}
      data-testid="conversation"
      className={cn(
        'flex w-full cursor-pointer items-start gap-3 px-4 py-3 text-left transition-colors outline-none hover:bg-accent/60 focus-visible:bg-accent/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset',
        selected && 'bg-accent',
      )}
    >
      <UserAvatar imageUrl={user.profileImageUrl} name={name} className="mt-0.5" />
      <span className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className="flex items-baseline justify-between gap-2">
          <span className={cn('min-w-0 truncate text-sm', unreadCount > 0 ? 'font-semibold' : 'font-medium')}>{name}</span>
          <time dateTime={lastMessage.createdAt} className="shrink-0 text-xs text-muted-foreground tabular-nums">
            {formatMessageTime(lastMessage.createdAt)}
          </time>
        </span>
        <span className="flex items-center justify-between gap-2">
          <span className={cn('min-w-0 truncate text-sm', unreadCount > 0 ? 'text-foreground' : 'text-muted-foreground')}>
            {mine ? 'You: ' : ''}
            {lastMessage.content}
          </span>
          {unreadCount > 0 ? (
            <span
              data-testid="conversation-unread"
              className="min-w-5 shrink-0 rounded-full bg-primary px-1.5 text-center text-xs leading-5 font-semibold text-primary-foreground tabular-nums"
            >
              <span className="sr-only">Unread: </span>
              {unreadCount > 99 ? '99+' : unreadCount}
            </span>
          ) : null}
        </span>
        {user.role !== 'admin' && currentIsTeam ? (
          <span className="truncate text-xs text-muted-foreground" data-testid="conversation-assignee">
            {assignee ? `Assigned to ${assignee.id === currentUserId ? 'you' : assignee.name}` : 'Unassigned'}
          </span>
        ) : null}
      </span>
    </button>
  );
}

import { BackLink, PageHeading } from '@client/components/page-heading';
import { useLocation, useSearch } from 'wouter';
import { AppHeader } from '@client/components/app-header';
import { useAuth } from '@client/lib/auth';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { cn } from '@client/lib/utils';
import { ChatPane } from './chat-pane';
import { ConversationList } from './conversation-list';
import { useOpenThread } from './live-messages';
import { useConversations } from '@client/entities/message/message-queries';
import { NewConversationDialog } from './new-conversation-dialog';

/**
 * SPEC §2 "Messages": conversations on the left, the chosen one on the right. The chosen
 * conversation lives in the address (`?with={userId}`) so it survives a reload and can be linked to.
 */
export function MessagesPage() {
  useDocumentTitle('Messages');
  const { user } = useAuth();
  const search = useSearch();
  const [, navigate] = useLocation();
  const selectedUserId = new URLSearchParams(search).get('with');
  const list = useConversations();
  const conversations = list.data?.pages.flatMap((page) => page.conversations) ?? [];
  useOpenThread(selectedUserId);

  if (!user) return null;
  const select = (userId: string | null) =>
    navigate(userId ? `/messages?with=${encodeURIComponent(userId)}` : '/messages', { replace: true });
  const selected = conversations.find((c) => c.user.id === selectedUserId);

  return (
    <div className="min-h-dvh">
      <AppHeader user={user} home="/dashboard" className="max-w-6xl" />
      <main className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
        <BackLink />
        <PageHeading title="Messages" description="Communicate with the label team about your submissions." />

        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)] lg:items-stretch">
          <ConversationList
            conversations={conversations}
            currentUserId={user.id}
            selectedUserId={selectedUserId}
            onSelect={select}
            isLoading={list.isLoading}
            isError={list.isError}
            hasMore={list.hasNextPage}
            isLoadingMore={list.isFetchingNextPage}
            onLoadMore={() => void list.fetchNextPage()}
            action={<NewConversationDialog onChoose={select} label={conversations.length === 0 ? 'Message the label team' : 'New message'} />}
            // Small screens show one pane at a time: the list until a conversation is chosen.
            className={cn(selectedUserId && 'hidden lg:flex')}
          />
          <ChatPane
            currentUserId={user.id}
            otherUserId={selectedUserId}
            knownUser={selected?.user}
            latestUnreadId={selected?.latestUnreadId ?? null}
            onBack={() => select(null)}
            className={cn(!selectedUserId && 'hidden lg:flex')}
          />
        </div>
      </main>
    </div>
  );
}

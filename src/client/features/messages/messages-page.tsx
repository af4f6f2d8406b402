import { BackLink, PageHeading } from '@client/components/page-heading';
import { SquarePen } from 'lucide-react';
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { ArtistHeader } from '@client/components/artist-header';
import { AdminHeader } from '@client/components/admin-header';
import { useUnseenActivity } from '@client/entities/submission/artist-activity-queries';
import { Button } from '@client/components/ui/button';
import { useAuth } from '@client/lib/auth';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { cn } from '@client/lib/utils';
import { ChatPane } from './chat-pane';
import { ConversationList } from './conversation-list';
import { useOpenThread } from '@client/entities/message/open-thread';
import { useConversations, useUnreadMessageCount } from '@client/entities/message/message-queries';
import { MESSAGES_SUBTITLES, NO_CONVERSATIONS_HINT } from './messages-texts';
import { NewConversationDialog } from './new-conversation-dialog';
import { TEAM_CONVERSATION_ID, type ConversationFilter } from '@shared/messages';

/**
 * SPEC §2 "Messages": conversations on the left, the chosen one on the right. The chosen
 * conversation lives in the address (`?with={userId}`, `team` for an artist's conversation with
 * the label team) so it survives a reload and can be linked to; `&submission={id}` opens it
 * about a submission (CONTRACT §18: "Contact Support", the submission's details).
 */
export function MessagesPage() {
  useDocumentTitle('Messages');
  const { user } = useAuth();
  const search = useSearch();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const selectedUserId = params.get('with');
  const aboutSubmissionId = params.get('submission');
  const [filter, setFilter] = useState<ConversationFilter>('all');
  const isTeam = user?.role === 'admin';
  const list = useConversations(isTeam ? filter : 'all');
  const unread = useUnreadMessageCount();
  const newFromArtists = useUnseenActivity(isTeam).total;
  const conversations = list.data?.pages.flatMap((page) => page.conversations) ?? [];
  useOpenThread(selectedUserId);

  if (!user) return null;
  const select = (userId: string | null) =>
    navigate(userId ? `/messages?with=${encodeURIComponent(userId)}` : '/messages', { replace: true });
  const selected = conversations.find((c) => c.user.id === selectedUserId);

  // Artists write to the team, not to a person they pick (CONTRACT §18); the team may still
  // start a conversation with one of its own.
  const action = isTeam ? (
    <NewConversationDialog onChoose={select} label="New message" />
  ) : (
    <Button variant="outline" size="sm" onClick={() => select(TEAM_CONVERSATION_ID)}>
      <SquarePen aria-hidden />
      Message the label team
    </Button>
  );

  return (
    <div className="min-h-dvh">
      {/* The team keeps its own navigation here, so Messages is one of its pages rather than the artists'. */}
      {isTeam ? <AdminHeader user={user} unreadMessages={unread} newFromArtists={newFromArtists} /> : <ArtistHeader user={user} />}
      <main className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
        {isTeam ? <BackLink href="/admin">Back to Admin</BackLink> : <BackLink />}
        <PageHeading title="Messages" description={MESSAGES_SUBTITLES[user.role]} />

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
            action={isTeam || conversations.length === 0 ? action : null}
            emptyHint={NO_CONVERSATIONS_HINT[user.role]}
            filter={isTeam ? { value: filter, onChange: setFilter } : undefined}
            // Small screens show one pane at a time: the list until a conversation is chosen.
            className={cn(selectedUserId && 'hidden lg:flex')}
          />
          <ChatPane
            currentUser={user}
            otherUserId={selectedUserId}
            knownUser={selected?.user}
            latestUnreadId={selected?.latestUnreadId ?? null}
            aboutSubmissionId={aboutSubmissionId}
            onClearAbout={() => selectedUserId && select(selectedUserId)}
            onBack={() => select(null)}
            className={cn(!selectedUserId && 'hidden lg:flex')}
          />
        </div>
      </main>
    </div>
  );
}

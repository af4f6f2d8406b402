import { MessageSquare } from 'lucide-react';
import { Link } from 'wouter';
import type { PublicUser } from '@shared/auth';
import { Button } from '@client/components/ui/button';
import { ProfileButton, ProfileCompletionCard, useProfileSetup } from '@client/features/profile/profile-setup';
import { UnreadBadge } from '@client/components/unread-badge';
import { useUnreadMessageCount } from '@client/entities/message/message-queries';
import { useSubmissions } from '@client/entities/submission/submission-queries';
import { NewSubmissionButton } from '@client/entities/submission/new-submission-button';

/** SPEC §2: greeting by artist name, else first name, else "Artist". */
function greetingName(user: PublicUser): string {
  return user.artistName?.trim() || user.firstName?.trim() || 'Artist';
}

/**
 * SPEC's 'Welcome back, {name}!' is for an artist who has been here before, which their
 * submissions show; a brand-new artist, with none yet, is welcomed to a first one instead.
 */
function Greeting({ user }: { user: PublicUser }) {
  const submissions = useSubmissions();
  const name = greetingName(user);
  if (submissions.isPending) {
    return <h1 className="h-8 text-2xl font-semibold sm:h-9 sm:text-3xl" aria-busy="true" />;
  }
  // A draft is not a visit that counts: an artist with only a draft has sent nothing yet (issue 36).
  const firstTime = user.role !== 'admin' && submissions.isSuccess && submissions.list.every((s) => s.status === 'draft');
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight break-words sm:text-3xl">{firstTime ? `Welcome, ${name}!` : `Welcome back, ${name}!`}</h1>
      <p className="text-muted-foreground">{firstTime ? 'Ready to submit your first track?' : 'Ready to submit your next hit?'}</p>
    </>
  );
}

export function DashboardWelcome({ user }: { user: PublicUser }) {
  const unread = useUnreadMessageCount();
  const setup = useProfileSetup(user);
  return (
    <>
      <section className="flex flex-col gap-5 md:flex-row md:items-end md:justify-between">
        <div className="grid min-w-0 gap-1">
          <Greeting user={user} />
        </div>
        <div className="flex flex-wrap gap-2">
          <NewSubmissionButton />
          <Button asChild variant="outline" className="relative">
            <Link href="/messages">
              <MessageSquare aria-hidden />
              Messages
              <UnreadBadge count={unread} />
            </Link>
          </Button>
          <ProfileButton user={user} setup={setup} />
        </div>
      </section>
      <ProfileCompletionCard setup={setup} />
    </>
  );
}

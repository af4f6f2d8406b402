import type { PublicUser } from '@shared/auth';

/** SPEC §2: greeting by artist name, else first name, else "Artist". */
function greetingName(user: PublicUser): string {
  return user.artistName?.trim() || user.firstName?.trim() || 'Artist';
}

export function DashboardWelcome({ user }: { user: PublicUser }) {
  return (
    <section className="grid gap-1">
      <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Welcome back, {greetingName(user)}!</h1>
      <p className="text-muted-foreground">Ready to submit your next hit?</p>
    </section>
  );
}

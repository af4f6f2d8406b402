import { ShieldAlert } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { useDocumentTitle } from '@client/lib/use-document-title';

/** SPEC §2: signed-in artists may open a team page (/admin and below) but only see this. */
export function AccessDenied() {
  useDocumentTitle('Access Denied');
  return (
    <main className="flex min-h-dvh items-center justify-center px-4">
      <div className="flex max-w-md flex-col items-center gap-4 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-destructive/15 text-destructive-soft">
          <ShieldAlert className="size-6" aria-hidden />
        </span>
        <h1 className="text-2xl font-semibold">Access Denied</h1>
        <p className="text-muted-foreground">You don't have admin privileges to access this page.</p>
        <Button asChild>
          <Link href="/">Go Back to Dashboard</Link>
        </Button>
      </div>
    </main>
  );
}

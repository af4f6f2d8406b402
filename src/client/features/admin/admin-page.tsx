import { ShieldAlert } from 'lucide-react';
import { Link } from 'wouter';
import { PlaceholderPage } from '@client/components/placeholder-page';
import { Button } from '@client/components/ui/button';
import { useAuth } from '@client/lib/auth';
import { useDocumentTitle } from '@client/lib/use-document-title';

export function AdminPage() {
  const { user } = useAuth();
  if (user?.role !== 'admin') return <AccessDenied />;
  return <PlaceholderPage title="Admin Dashboard" summary="Review every submission, change its status, keep internal notes, download files and message artists." />;
}

/** SPEC §2: signed-in artists may open /admin but only see this. */
function AccessDenied() {
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

import { ArrowLeft, Hammer } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { Card, CardContent } from '@client/components/ui/card';
import { useDocumentTitle } from '@client/lib/use-document-title';

interface PlaceholderPageProps {
  title: string;
  /** What this page will do, in a sentence. */
  summary: ReactNode;
  children?: ReactNode;
}

/** A page whose feature is not built yet: says so plainly and leads back to the dashboard. */
export function PlaceholderPage({ title, summary, children }: PlaceholderPageProps) {
  useDocumentTitle(title);
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12">
      <div>
        <Button asChild variant="ghost" size="sm" className="-ml-3">
          <Link href="/dashboard">
            <ArrowLeft aria-hidden />
            Back to Dashboard
          </Link>
        </Button>
      </div>
      <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
      <Card>
        <CardContent className="flex flex-col items-start gap-3 pt-6">
          <span className="flex size-10 items-center justify-center rounded-full bg-primary/15 text-primary-soft">
            <Hammer className="size-5" aria-hidden />
          </span>
          <p className="text-muted-foreground">{summary}</p>
          <p className="text-sm text-muted-foreground">This page is not available yet. It is being built and will open here soon.</p>
          {children}
        </CardContent>
      </Card>
    </main>
  );
}

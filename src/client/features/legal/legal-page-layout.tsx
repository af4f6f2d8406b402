import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { formatLongDate } from '@client/lib/format';
import { useDocumentTitle } from '@client/lib/use-document-title';

interface LegalPageLayoutProps {
  title: string;
  /**
   * The day the text last changed (YYYY-MM-DD), for "Last updated"; without it, today (SPEC §1).
   * The Terms pass TERMS_VERSION, the version every licence record keeps (issue 23: the page said
   * today while the accepted version was older).
   */
  updated?: string;
  intro: ReactNode;
  children: ReactNode;
}

/** Shared frame of the legal pages: Back to /, title, "Last updated", readable measure. */
export function LegalPageLayout({ title, updated, intro, children }: LegalPageLayoutProps) {
  useDocumentTitle(title);
  const day = updated ?? localIsoDate(new Date());
  return (
    <div className="min-h-dvh">
      <main className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
        <Button asChild variant="ghost" size="sm" className="-ml-3">
          <Link href="/">
            <ArrowLeft aria-hidden />
            Back
          </Link>
        </Button>
        <article className="mt-6">
          <header className="border-b pb-6">
            <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">{title}</h1>
            <p className="mt-3 text-sm text-muted-foreground">
              Last updated: <time dateTime={day}>{formatLongDate(dayStart(day))}</time>
            </p>
          </header>
          <div className="mt-6 grid gap-4 text-base leading-7 text-foreground/85">{intro}</div>
          <div className="mt-4">{children}</div>
        </article>
      </main>
    </div>
  );
}

/** Today's date where the reader is, as YYYY-MM-DD. */
function localIsoDate(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** The start of a YYYY-MM-DD day in the reader's time zone: parsed as UTC it would read a day early west of Greenwich. */
function dayStart(day: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year!, month! - 1, date);
}

export function LegalSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-10">
      <h2 id={id} className="text-xl font-semibold tracking-tight text-foreground">
        {title}
      </h2>
      <div className="mt-3 grid gap-4 text-base leading-7 text-foreground/85 [&_li]:pl-1 [&_strong]:font-semibold [&_strong]:text-foreground [&_ul]:grid [&_ul]:list-disc [&_ul]:gap-2 [&_ul]:pl-6">
        {children}
      </div>
    </section>
  );
}

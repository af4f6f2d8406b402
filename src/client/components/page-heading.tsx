import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';

/** The way back above a page's title: "Back to Dashboard" (SPEC §2) or "Back to Admin". */
export function BackLink({ href = '/dashboard', children = 'Back to Dashboard' }: { href?: string; children?: ReactNode }) {
  return (
    <div>
      <Button asChild variant="ghost" size="sm" className="-ml-3">
        <Link href={href}>
          <ArrowLeft aria-hidden />
          {children}
        </Link>
      </Button>
    </div>
  );
}

/** A page's title (the one h1) and, when given, the sentence under it. */
export function PageHeading({ title, description }: { title: ReactNode; description?: ReactNode }) {
  const heading = <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>;
  if (description === undefined) return heading;
  return (
    <header className="grid gap-1">
      {heading}
      <p className="text-muted-foreground">{description}</p>
    </header>
  );
}

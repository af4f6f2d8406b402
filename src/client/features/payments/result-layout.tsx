import type { ReactNode } from 'react';
import { Card, CardContent } from '@client/components/ui/card';
import { cn } from '@client/lib/utils';

/** The frame of /payment-success and /payment-failure: one centred card with an icon and a heading. */
export function ResultLayout({
  icon,
  tone,
  title,
  lead,
  children,
}: {
  icon: ReactNode;
  tone: 'success' | 'failure' | 'neutral';
  title: string;
  lead: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="flex min-h-dvh items-start justify-center px-4 py-10 sm:items-center sm:py-12">
      <Card className="w-full max-w-lg">
        <CardContent className="flex flex-col gap-6 p-6 sm:p-8">
          <div className="flex flex-col items-center gap-3 text-center">
            <span
              aria-hidden
              className={cn(
                'flex size-14 items-center justify-center rounded-full [&_svg]:size-7',
                tone === 'success' && 'bg-success/15 text-success',
                tone === 'failure' && 'bg-destructive/20 text-destructive-soft',
                tone === 'neutral' && 'bg-primary/15 text-primary-soft',
              )}
            >
              {icon}
            </span>
            <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
            <div className="text-muted-foreground">{lead}</div>
          </div>
          {children}
        </CardContent>
      </Card>
    </main>
  );
}

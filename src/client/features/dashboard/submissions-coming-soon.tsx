import { ListMusic } from 'lucide-react';
import { Card, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';

/** Stands in for the submissions overview until it is built; shows no figures it does not have. */
export function SubmissionsComingSoon() {
  return (
    <Card>
      <CardHeader className="flex-row items-start gap-4">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/15 text-primary-soft">
          <ListMusic className="size-5" aria-hidden />
        </span>
        <div className="grid gap-1.5">
          <CardTitle>Your submissions</CardTitle>
          <CardDescription>
            Your submissions, their status and your messages with the label team will appear here. This part of the dashboard is
            being built.
          </CardDescription>
        </div>
      </CardHeader>
    </Card>
  );
}

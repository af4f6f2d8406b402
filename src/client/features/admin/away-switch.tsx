import { Palmtree } from 'lucide-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { Availability } from '@shared/admin';
import { Button } from '@client/components/ui/button';
import { apiRequest, errorMessage } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';
import { toast } from '@client/lib/toast';

const AVAILABILITY_KEY = '/api/admin/me/availability';

/**
 * The admin's own "away" switch (CONTRACT §26): while away, fair assignment (AUTO_ASSIGN=on) gives
 * new submissions to the rest of the team. A toggle button, its state read from the server.
 */
export function AwaySwitch() {
  const availability = useQuery<Availability>({ queryKey: [AVAILABILITY_KEY] });
  const change = useMutation({
    mutationFn: (away: boolean) => apiRequest<Availability>('PUT', AVAILABILITY_KEY, { away }),
    onSuccess: (next) => {
      queryClient.setQueryData([AVAILABILITY_KEY], next);
      toast({ title: next.away ? 'You are away' : 'You are back', description: next.away ? 'New submissions go to the rest of the team.' : 'New submissions can be assigned to you again.' });
    },
    onError: (error) => toast({ title: 'Availability not changed', description: errorMessage(error), variant: 'destructive' }),
  });
  const away = availability.data?.away ?? false;
  return (
    <Button
      type="button"
      variant={away ? 'secondary' : 'outline'}
      size="sm"
      className="h-9"
      aria-pressed={away}
      data-testid="away-switch"
      disabled={!availability.data || change.isPending}
      onClick={() => change.mutate(!away)}
      aria-label={away ? 'Away' : 'Available'}
      title={away ? 'You are away: new submissions are not assigned to you' : 'Mark yourself away: new submissions go to the rest of the team'}
    >
      <Palmtree aria-hidden />
      <span className="sr-only sm:not-sr-only">{away ? 'Away' : 'Available'}</span>
    </Button>
  );
}

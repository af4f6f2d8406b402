import { useMutation, useQuery } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { TAX_FORM_LABELS, type PayeeSummary } from '@shared/payees';
import { PAYOUT_TEXTS } from '@shared/payouts';
import { formatUsd } from '@shared/submissions';
import { Button } from '@client/components/ui/button';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@client/components/ui/collapsible';
import { apiRequest, errorMessage } from '@client/lib/api';
import { toast } from '@client/lib/toast';

/**
 * Everyone the label pays bonus shares to (CONTRACT §24): the artists and their co-owners, each
 * with their tax form, payout account and what they are owed and were paid; a fresh link for a
 * co-owner, and the accountant's CSV of the year.
 */
export function PayeesList() {
  const payees = useQuery<PayeeSummary[]>({ queryKey: ['/api/admin/payees'] });
  const invite = useMutation({ mutationFn: (id: string) => apiRequest('POST', `/api/admin/payees/${encodeURIComponent(id)}/invite`, {}) });
  const rows = payees.data ?? [];
  if (rows.length === 0) return null;
  const year = new Date().getUTCFullYear();
  return (
    <Collapsible className="rounded-xl border bg-card" data-testid="payees-list">
      <CollapsibleTrigger className="flex w-full cursor-pointer items-center gap-2 p-4 text-left text-sm font-semibold">
        <Users className="size-4 text-primary-soft" aria-hidden />
        Payees ({rows.length})
      </CollapsibleTrigger>
      <CollapsibleContent>
        <div className="grid gap-3 px-4 pb-4 text-sm">
          <p className="flex flex-wrap gap-3">
            {[year, year - 1].map((y) => (
              <a key={y} className="text-primary underline" href={`/api/admin/payouts/${y}.csv`} download>
                Accountant’s CSV {y}
              </a>
            ))}
          </p>
          <ul className="grid gap-2">
            {rows.map((payee) => (
              <li key={payee.id} className="grid gap-1 border-t pt-2 sm:grid-cols-[1fr_auto] sm:items-center" data-testid="payee-row">
                <div className="min-w-0">
                  <p className="font-medium">
                    {payee.name}
                    {payee.artist ? <span className="ml-1 text-xs font-normal text-muted-foreground">(artist)</span> : null}
                  </p>
                  <p className="truncate text-xs text-muted-foreground">{payee.email ?? 'No email'}</p>
                  <p className="text-xs">
                    <span className={payee.taxForm.status === 'on_file' ? 'text-success' : 'text-warning'}>
                      {payee.taxForm.kind ? `${TAX_FORM_LABELS[payee.taxForm.kind]} on file` : 'No tax form'}
                    </span>
                    {' · '}
                    <span className={payee.payoutAccount.status === 'active' ? 'text-success' : 'text-warning'}>Payouts: {PAYOUT_TEXTS.status[payee.payoutAccount.status].toLowerCase()}</span>
                    {' · '}owed {formatUsd(payee.owed)}, paid {formatUsd(payee.paid)}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  {payee.taxForm.kind ? (
                    <Button asChild size="sm" variant="outline" className="h-7">
                      <a href={`/api/admin/payees/${payee.id}/tax-form.pdf`} download>
                        Tax form
                      </a>
                    </Button>
                  ) : null}
                  {!payee.artist && payee.email ? (
                    <Button
                      size="sm"
                      variant="outline"
                      className="h-7"
                      disabled={invite.isPending}
                      onClick={() =>
                        invite.mutate(payee.id, {
                          onSuccess: () => toast({ title: 'Link sent', description: `A fresh link is on its way to ${payee.email}` }),
                          onError: (error) => toast({ title: 'Not sent', description: errorMessage(error), variant: 'destructive' }),
                        })
                      }
                    >
                      Send a fresh link
                    </Button>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        </div>
      </CollapsibleContent>
    </Collapsible>
  );
}

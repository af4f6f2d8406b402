import { Flame } from 'lucide-react';
import { useState } from 'react';
import { MONEY_CONFIRM_TEXTS } from '@shared/billing';
import { LEDGER_PAYOUT_TEXT } from '@shared/payouts';
import type { ArtistLedger, BonusEarning } from '@shared/production';
import { VIRAL_HITS_NEEDED } from '@shared/production-texts';
import { formatUsd } from '@shared/submissions';
import { useLedgers, useMarkEarning, usePayEarning } from '@client/entities/submission/production-queries';
import { Button } from '@client/components/ui/button';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@client/components/ui/collapsible';
import { errorMessage } from '@client/lib/api';
import { formatLongDate } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { SHARE_MISSING_TEXT } from '@shared/payees';
import { OWNER_ROLE_LABELS } from '@shared/rights-texts';

const readyShares = (earning: BonusEarning) => earning.shares.filter((share) => share.status === 'unpaid' && share.missing.length === 0);
const readyAmount = (earning: BonusEarning) => (readyShares(earning).reduce((sum, share) => sum + Math.round(Number(share.amount) * 100), 0) / 100).toFixed(2);
const readyNames = (earning: BonusEarning) => readyShares(earning).map((share) => share.name).join(', ');

/** An earning's shares: who, their part, and paid or what it waits for. */
function EarningShares({ earning }: { earning: BonusEarning }) {
  if (earning.shares.length === 0) return null;
  return (
    <ul className="grid w-full gap-0.5 border-l-2 pl-2 text-xs" data-testid="ledger-shares">
      {earning.shares.map((share) => (
        <li key={share.ownerId} data-testid="ledger-share" data-status={share.status}>
          <span className="font-medium">{share.name}</span> ({OWNER_ROLE_LABELS[share.role].toLowerCase()}, {share.share}%): {formatUsd(share.amount)} ·{' '}
          {share.status === 'paid' ? (
            <span className="text-success">{share.transferId ? `paid, ${share.transferId}` : 'paid outside Stripe'}</span>
          ) : share.status === 'void' ? (
            <span className="text-muted-foreground">void</span>
          ) : share.missing.length > 0 ? (
            <span className="text-warning">waits: {share.missing.map((m) => SHARE_MISSING_TEXT[m].toLowerCase()).join(', ')}</span>
          ) : (
            <span className="text-success">ready to pay</span>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * Every artist's viral hits and bonus ledger (CONTRACT §13); the team pays an earning with one
 * Stripe transfer to the artist's connected account (CONTRACT §19), or marks it paid by hand when
 * the label pays outside Stripe.
 */
export function BonusLedger() {
  const ledgers = useLedgers();
  const mark = useMarkEarning();
  const pay = usePayEarning();
  // The earning whose Stripe payment waits for the team's yes (CONTRACT §21: money moves only after the product's own dialog).
  const [paying, setPaying] = useState<{ ledger: ArtistLedger; earning: BonusEarning } | null>(null);
  const rows = ledgers.data ?? [];
  if (rows.length === 0) return null;
  return (
    <Collapsible className="rounded-xl border bg-card" data-testid="bonus-ledger">
      <CollapsibleTrigger className="flex w-full cursor-pointer items-center gap-2 p-4 text-left text-sm font-semibold">
        <Flame className="size-4 text-primary-soft" aria-hidden />
        Viral bonus ledger ({rows.length} artist{rows.length === 1 ? '' : 's'} published)
      </CollapsibleTrigger>
      <CollapsibleContent>
        <div className="overflow-x-auto px-4 pb-4">
          <table className="w-full text-sm">
            {/* On a phone each artist is a block: name, hits and sums on one line, the earnings under them. */}
            <thead className="hidden text-left text-xs text-muted-foreground sm:table-header-group">
              <tr>
                <th className="py-2 pr-3 font-medium">Artist</th>
                <th className="py-2 pr-3 font-medium">Viral hits</th>
                <th className="py-2 pr-3 font-medium">Owed</th>
                <th className="py-2 pr-3 font-medium">Paid</th>
                <th className="py-2 font-medium">Earnings</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((ledger) => (
                <tr key={ledger.userId} className="grid grid-cols-[1fr_auto_auto] gap-x-3 border-t py-2 align-top sm:table-row sm:py-0">
                  <td className="col-span-3 py-1 pr-3 sm:py-2">
                    <span className="font-medium">{ledger.artistName}</span>
                    <span className="block text-xs text-muted-foreground" data-testid="ledger-email">
                      {ledger.accountDeleted ? 'Account deleted' : (ledger.email ?? 'No email')}
                    </span>
                    {/* Said up front, before anyone presses "Pay with Stripe" (issue 36). */}
                    <span
                      className={`block text-xs ${ledger.payoutAccount === 'active' ? 'text-success' : 'text-warning'}`}
                      data-testid="ledger-payout-account"
                      data-status={ledger.payoutAccount}
                    >
                      {LEDGER_PAYOUT_TEXT[ledger.payoutAccount]}
                    </span>
                  </td>
                  <td className="py-1 pr-3 tabular-nums sm:py-2">
                    <span className="text-xs text-muted-foreground sm:hidden">Hits </span>
                    {Math.min(ledger.viralHits, VIRAL_HITS_NEEDED)} of {VIRAL_HITS_NEEDED}
                    {ledger.unlocked ? ' · unlocked' : ''}
                  </td>
                  <td className="py-1 pr-3 tabular-nums sm:py-2">
                    <span className="text-xs text-muted-foreground sm:hidden">Owed </span>
                    {formatUsd(ledger.owed)}
                  </td>
                  <td className="py-1 pr-3 tabular-nums sm:py-2">
                    <span className="text-xs text-muted-foreground sm:hidden">Paid </span>
                    {formatUsd(ledger.paid)}
                    {Number(ledger.outstandingClawback) > 0 ? (
                      // CONTRACT §25: taken back from the next Stripe payouts, never charged.
                      <span className="block text-xs text-warning" data-testid="ledger-clawback">
                        {formatUsd(ledger.outstandingClawback)} to deduct
                      </span>
                    ) : null}
                  </td>
                  <td className="col-span-3 py-1 sm:py-2">
                    {ledger.earnings.length === 0 ? (
                      <span className="text-muted-foreground">None yet</span>
                    ) : (
                      <ul className="grid gap-1">
                        {ledger.earnings.map((earning) => (
                          <li key={earning.submissionId} className="flex flex-wrap items-center gap-2" data-testid="ledger-earning">
                            <span>
                              {earning.songTitle}: {formatUsd(earning.amount)}
                              {earning.paidAt ? `, paid ${formatLongDate(earning.paidAt)}` : ''}
                              {earning.transferId ? (
                                <span className="block font-mono text-xs break-all text-muted-foreground" data-testid="transfer-id">
                                  Stripe transfer {earning.transferId}
                                </span>
                              ) : earning.status === 'paid' ? (
                                <span className="block text-xs text-muted-foreground">Paid outside Stripe</span>
                              ) : earning.status === 'void' ? (
                                // CONTRACT §25: the hit it depended on was withdrawn before it was paid.
                                <span className="block text-xs text-muted-foreground" data-testid="ledger-void">
                                  Void: {earning.voidReason}
                                </span>
                              ) : null}
                            </span>
                            {/* Each owner's share, its payee and what it waits for (CONTRACT §24). */}
                            <EarningShares earning={earning} />
                            {earning.status === 'owed' && earning.shares.some((share) => share.status === 'unpaid' && share.missing.length === 0) ? (
                              <Button size="sm" className="h-7" disabled={pay.isPending || mark.isPending} onClick={() => setPaying({ ledger, earning })}>
                                Pay with Stripe
                              </Button>
                            ) : null}
                            {earning.status === 'owed' ? (
                              <Button
                                size="sm"
                                variant="outline"
                                className="h-7"
                                disabled={mark.isPending || pay.isPending}
                                onClick={() =>
                                  mark.mutate(
                                    { submissionId: earning.submissionId, status: 'paid' },
                                    { onError: (error) => toast({ title: 'Not saved', description: errorMessage(error), variant: 'destructive' }) },
                                  )
                                }
                              >
                                Mark paid
                              </Button>
                            ) : null}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </CollapsibleContent>
      <ConfirmDialog
        open={paying !== null}
        onOpenChange={(open) => (open ? undefined : setPaying(null))}
        pending={pay.isPending}
        title={MONEY_CONFIRM_TEXTS.payBonusTitle}
        description={paying ? MONEY_CONFIRM_TEXTS.payBonusBody(formatUsd(readyAmount(paying.earning)), readyNames(paying.earning)) : ''}
        confirmLabel={MONEY_CONFIRM_TEXTS.payBonusConfirm}
        onConfirm={() => {
          if (!paying) return;
          pay.mutate(paying.earning.submissionId, {
            onSuccess: (result) =>
              toast({
                title: result.paid.length > 0 ? `${result.paid.length} share${result.paid.length === 1 ? '' : 's'} paid` : 'Nothing paid yet',
                description: result.waiting.length > 0 ? `${result.waiting.length} share${result.waiting.length === 1 ? '' : 's'} still waiting for the owner's papers` : 'Every share of this bonus is paid',
              }),
            onError: (error) => toast({ title: 'Not paid', description: errorMessage(error), variant: 'destructive' }),
            onSettled: () => setPaying(null),
          });
        }}
      />
    </Collapsible>
  );
}

import { TIERS } from '@shared/submissions';
import type { Db } from '../../platform/db/client';
import { apiError } from '../../platform/errors';
import { orderIdOf, type PaymentReceipt } from '@shared/payments';
import { findOwnedSubmission, paidAt } from './payment-reads';


/** The payment of the caller's own submission; anyone else's is "not found". */
export async function findPaymentReceipt(db: Db, userId: string, submissionId: string): Promise<PaymentReceipt> {
  const submission = await findOwnedSubmission(db, userId, submissionId);
  const tier = TIERS[submission.pricingTier];
  const at = submission.paymentStatus === 'succeeded' ? await paidAt(db, submission.id) : null;
  return {
    submissionId: submission.id,
    orderId: orderIdOf(submission.id),
    songTitle: submission.songTitle,
    artistName: submission.artistName,
    tier: submission.pricingTier,
    tierName: tier.name,
    amount: tier.priceUsd.toFixed(2),
    currency: 'usd',
    paymentStatus: submission.paymentStatus,
    paidAt: at?.toISOString() ?? null,
    paymentId: submission.stripePaymentIntentId,
    includes: tier.promises,
  };
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const usd = (amount: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(Number(amount));

const dateTime = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso)) +
  ' UTC';

/**
 * The downloadable receipt: one self-contained HTML page (no scripts, no external resources)
 * that opens in any browser and prints cleanly. Only for a payment Stripe has confirmed.
 */
export function renderReceiptHtml(receipt: PaymentReceipt, productName: string): string {
  if (receipt.paymentStatus !== 'succeeded' || !receipt.paidAt) throw apiError('receipt_not_ready');
  const row = (label: string, value: string) =>
    `<tr><th scope="row">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Receipt ${escapeHtml(receipt.orderId)} · ${escapeHtml(productName)}</title>
<style>
  body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #111; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
  h1 { font-size: 1.5rem; margin-bottom: 0.25rem; }
  p { color: #444; margin-top: 0; }
  table { width: 100%; border-collapse: collapse; margin: 1.5rem 0; }
  th, td { text-align: left; padding: 0.5rem 0; border-bottom: 1px solid #ddd; vertical-align: top; }
  th { font-weight: 600; width: 40%; }
  .total td, .total th { font-size: 1.125rem; border-bottom: 2px solid #111; }
  footer { color: #666; font-size: 0.875rem; }
</style>
</head>
<body>
<h1>Payment receipt</h1>
<p>${escapeHtml(productName)} · Paid</p>
<table>
${row('Order ID', receipt.orderId)}
${row('Date paid', dateTime(receipt.paidAt))}
${row('Submission', `${receipt.songTitle} by ${receipt.artistName}`)}
${row('Plan', `${receipt.tierName} (${receipt.includes.join(', ')})`)}
${row('Payment method', 'Card, processed by Stripe')}
${row('Payment ID', receipt.paymentId ?? '')}
<tr class="total"><th scope="row">Amount paid</th><td>${escapeHtml(usd(receipt.amount))} ${escapeHtml(receipt.currency.toUpperCase())}</td></tr>
</table>
<footer>Submission ID ${escapeHtml(receipt.submissionId)}. Keep this receipt for your records.</footer>
</body>
</html>
`;
}

/**
 * Bonus payouts through Stripe Connect (CONTRACT §19): the artist's connected account and what
 * the screens say about it. One source for the states, the wire shape and the texts.
 */

/** What GET /api/payouts/account answers: no account yet, onboarding not finished, or ready for transfers. */
export const PAYOUT_ACCOUNT_STATUSES = ['none', 'pending', 'active'] as const;
export type PayoutAccountStatus = (typeof PAYOUT_ACCOUNT_STATUSES)[number];
/** The states a stored connected account can be in (`none` is the absence of one). */
export const STORED_PAYOUT_STATUSES = ['pending', 'active'] as const satisfies readonly PayoutAccountStatus[];
export type StoredPayoutStatus = (typeof STORED_PAYOUT_STATUSES)[number];

/** GET /api/payouts/account */
export interface PayoutAccountState {
  status: PayoutAccountStatus;
}

/** POST /api/payouts/account: where the artist continues Stripe's onboarding. */
export interface PayoutOnboardingLink {
  url: string;
}

/** Where Stripe sends the artist back: `/settings/billing?payouts=return|refresh`. */
export const PAYOUTS_RETURN_PATH = '/settings/billing';
export const PAYOUTS_QUERY = 'payouts';
export const PAYOUTS_RETURN = 'return';
export const PAYOUTS_REFRESH = 'refresh';

/** The transfers of an earning at Stripe, as a group. */
export const bonusTransferKey = (submissionId: string) => `bonus:${submissionId}`;
/** The transfer of one owner's share of an earning (CONTRACT §24): one per share, whatever happens twice. */
export const shareTransferKey = (submissionId: string, ownerId: number) => `bonus:${submissionId}:${ownerId}`;

export const PAYOUT_TEXTS = {
  title: 'Bonus payouts',
  description: 'Your viral bonus is paid into a Stripe account in your name. Connect it once, and every bonus the label pays reaches it.',
  status: {
    none: 'Not connected',
    pending: 'Setup not finished',
    active: 'Connected',
  } satisfies Record<PayoutAccountStatus, string>,
  explain: {
    none: 'Connect a payout account with Stripe to receive your bonus by bank transfer.',
    pending: 'Stripe still needs some details before it can send you money. Finish the setup, or wait for Stripe to check what you sent.',
    active: 'Bonus payments are sent to your Stripe account and paid out to your bank.',
  } satisfies Record<PayoutAccountStatus, string>,
  connect: 'Connect payouts with Stripe',
  finish: 'Finish setup with Stripe',
  update: 'Open Stripe setup',
  opening: 'Opening Stripe…',
  returned: 'Welcome back. Stripe is checking your details; this page updates when it is done.',
} as const;

/**
 * The team's bonus ledger names each artist's payout account before anyone presses "Pay with
 * Stripe" (issue 36): a transfer only reaches an active account.
 */
export const LEDGER_PAYOUT_TEXT: Record<PayoutAccountStatus, string> = {
  none: 'No Stripe payout account: ask the artist to connect payouts under Settings → Billing, or mark paid by hand.',
  pending: 'Stripe payout onboarding not finished: ask the artist to finish it, or mark paid by hand.',
  active: 'Stripe payout account ready',
};

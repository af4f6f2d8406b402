/**
 * What the checkout says when it cannot take a payment (issue 43 item 11): which part failed and
 * what the artist can do, instead of one "Failed to initialize payment" for everything.
 */
export const CHECKOUT_TEXTS = {
  /** Stripe's script or its card fields did not load in this browser: most often a blocker. */
  cardFormFailedTitle: 'The card form could not load',
  cardFormFailed:
    'Stripe’s card form did not load in this browser. A content or ad blocker, a privacy extension or a network that blocks js.stripe.com is the usual cause.',
  cardFormSteps: [
    'Try again: a dropped connection is often all it was.',
    'Allow js.stripe.com in your blocker or pause it for this page, then try again.',
    'Or open this page in another browser, or write to the label’s team.',
  ],
  /** The server could not prepare the payment (Stripe or the site answered with an error). */
  intentFailedTitle: 'The payment could not be prepared',
  intentFailed: (detail: string) => `${detail} Try again in a moment, or write to the label’s team if it keeps happening.`,
  saved: 'Your submission is saved: nothing is charged until you pay.',
  retry: 'Try again',
  contact: 'Contact the label’s team',
} as const;

/** GET /api/config (CONTRACT §6). */
export interface PublicConfig {
  stripePublishableKey: string | null;
  googleEnabled: boolean;
  /** The OpenID provider's name for its button and errors (SIGN_IN_PROVIDER_NAME, "Google" for Google); null without one. */
  signInProvider: string | null;
  /**
   * Whether a mail server (SMTP_URL) is configured: without one every email waits in the outbox and
   * nothing is sent (CONTRACT §10), so the product says "queued", never "sent"
   * (docs/decisions/155-honest-texts-without-mail.md).
   */
  mailEnabled: boolean;
  /** VAT_RATE: the VAT the prices include, as a percentage; null when none is set (CONTRACT §19). */
  vatRatePercent: number | null;
  /** LABEL_LEGAL_NAME: the label's name, said on the landing page; null when none is set. */
  labelName: string | null;
}

/** What became of an email a request caused: handed to the mail server, or kept in the outbox unsent. */
export type MailDelivery = 'sending' | 'queued';
export const mailDelivery = (mailEnabled: boolean): MailDelivery => (mailEnabled ? 'sending' : 'queued');

/** The texts that say what became of an email, one place for every screen. */
export const MAIL_TEXTS = {
  queued: 'No mail server is configured, so nothing was sent: the email waits in the outbox.',
  artistEmailed: 'The artist has been emailed.',
  artistEmailedLink: 'The artist has been emailed the link.',
} as const;

/** GET /api/config (CONTRACT §6). */
export interface PublicConfig {
  stripePublishableKey: string | null;
  googleEnabled: boolean;
}

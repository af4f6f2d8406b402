/** Every error body (CONTRACT §2). */
export interface ApiErrorBody {
  message: string;
  errors?: { path: string; message: string }[];
}

/** GET /api/config (CONTRACT §6). */
export interface PublicConfig {
  stripePublishableKey: string | null;
  googleEnabled: boolean;
}

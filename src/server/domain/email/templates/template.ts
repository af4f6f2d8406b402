import type { ReactElement } from 'react';
import type { NotificationPreference } from '@shared/notifications';

/** What a template is told besides its own data. */
export interface EmailContext {
  /** The product's origin, e.g. https://hub.example.com */
  publicUrl: string;
  /** Present when the email is a notification the recipient can turn off. */
  unsubscribe: { url: string; what: string } | undefined;
}

/**
 * One kind of email: its subject and its body, from the data frozen when it was queued.
 * Adding a kind is one file exporting one of these, plus its line in `email-kinds.ts`.
 */
export interface EmailTemplate<Data> {
  /** The notification preference that turns this kind off; none for account emails and receipts. */
  preference: NotificationPreference | null;
  subject(data: Data): string;
  body(data: Data, context: EmailContext): ReactElement;
}

export const link = (context: EmailContext, path: string) => new URL(path, context.publicUrl).toString();

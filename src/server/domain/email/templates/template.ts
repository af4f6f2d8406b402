import type { EmailContext } from '../../../platform/email/outbox';

/** A link into the product, as an email's button or text shows it. */
export const link = (context: EmailContext, path: string) => new URL(path, context.publicUrl).toString();

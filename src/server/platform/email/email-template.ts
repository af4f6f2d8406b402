import { plainTextSelectors, render } from '@react-email/render';
import { compile } from 'html-to-text';
import type { ReactElement } from 'react';
import type { NotificationPreference } from '@shared/notifications';

/** What a template is told besides its own data. */
export interface EmailContext {
  /** The product's origin, e.g. https://hub.example.com */
  publicUrl: string;
  /** Present when the email is a notification the recipient can turn off. */
  unsubscribe: { url: string; what: string } | undefined;
}

/** One kind of email: its subject and its body, from the data frozen when it was queued (or prepared). */
export interface EmailTemplate<Data> {
  /** The notification preference that turns this kind off; none for account emails and receipts. */
  preference: NotificationPreference | null;
  subject(data: Data): string;
  body(data: Data, context: EmailContext): ReactElement;
}

/** An email as it goes out, before any secret in it is masked for the stored copy. */
export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/**
 * react-email's conversion of an email's HTML to its plain text (its `toPlainText`: html-to-text
 * with react-email's options), compiled once. `toPlainText` compiles html-to-text's options and
 * selectors again on every call, which was four fifths of the conversion's time (0.55 of
 * 0.66 ms an email, warm; decision 210).
 */
const toPlainText = compile({ wordwrap: false, selectors: plainTextSelectors });

/**
 * The subject, the HTML and the plain text of one email. react-email's render is CPU work on
 * the thread that calls it (a few milliseconds an email): the outbox calls it in a worker thread
 * (render-pool.ts), never on the thread that answers requests. The element is rendered once: the
 * text is react-email's own conversion of that HTML (what `render(element, { plainText: true })`
 * does after rendering the element a second time; issue 50: a third of an email's CPU).
 */
export async function renderEmail<Data>(template: EmailTemplate<Data>, data: Data, context: EmailContext): Promise<RenderedEmail> {
  const html = await render(template.body(data, context));
  return { subject: template.subject(data), html, text: toPlainText(html) };
}

import nodemailer from 'nodemailer';

/** A file sent with an email (a co-owner's signed copy). */
export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** One email as handed to the SMTP server. */
interface OutgoingEmail {
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  attachments?: EmailAttachment[];
}

export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer, from `SMTP_URL` (smtp:// or smtps://, credentials in the URL).
 * A small pool keeps connections open between emails; the timeouts stay well under the send
 * job's expiry, so a hung server fails the attempt instead of holding the job.
 */
export function createSmtpMailer(smtpUrl: string): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 3,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  return {
    send: async (email) => {
      await transport.sendMail({
        messageId: email.messageId,
        from: email.from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
        headers: email.headers,
        ...(email.attachments?.length ? { attachments: email.attachments } : {}),
      });
    },
    close: () => transport.close(),
  };
}

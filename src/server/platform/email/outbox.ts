import { and, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { OutboxPage, OutboxStatus } from '@shared/notifications';
import type { Config } from '../../config';
import type { Db, Tx } from '../db/client';
import { likePattern } from '../db/like-pattern';
import { outboxEmails, users, type OutboxEmailRow } from '../db/schema';
import { newId } from '../ids';
import type { JobQueue } from '../jobs/job-queue';
import type { EmailTemplate } from './email-template';
import { createSmtpMailer, type EmailAttachment, type Mailer } from './mailer';
import { wantsEmail } from './notification-settings';
import { RenderPool, type EmailRenderer, type RenderPoolOptions } from './render-pool';
import { createUnsubscribeToken } from './unsubscribe-token';

/** Sends one outbox email; declared with its retries by outbox-jobs.ts. */
export const SEND_EMAIL_JOB = 'email.send';
/** CONTRACT §10: a failing email is retried with backoff for this long, then given up. */
const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Marks template data a preparer produced and the outbox kept before the first send attempt. */
export const PREPARED_AT = 'preparedAt';
/** What the stored copy shows instead of a secret link (verification, password reset). */
export const HIDDEN = '[link hidden]';

export type { EmailContext, EmailTemplate } from './email-template';

/**
 * Work a kind needs done when its email goes out rather than when it is queued: gather what
 * is still true (the unread messages), or mint a secret link that must never be stored.
 */
export type EmailPreparer<Sent = Record<string, unknown>> = (
  row: OutboxEmailRow,
  /** The transaction that holds the row locked while it is prepared. */
  tx: Tx,
  config: Config,
) => Promise<{ send: Sent; secrets?: string[] } | { skip: string } | { notBefore: Date }>;

/**
 * The files an email carries, made as it is handed to SMTP (never stored in the outbox: the
 * stored copy is the text). They must come out the same on every attempt, since one Message-ID
 * carries one content (decision 082): drawn from stored rows, not from the moment of sending.
 */
export type EmailAttacher<Sent = Record<string, unknown>> = (data: Sent, db: Db, config: Config) => Promise<EmailAttachment[]>;

/**
 * A kind as the outbox sends it: its template and, when the email needs something made as it
 * goes out, its preparer (and its attachments). The kinds themselves are the domain's (domain/email/email-kinds.ts),
 * declared all in one typed table, so a kind cannot be queued without its template or preparer.
 * `queued` is never set: it carries the type of the data a caller queues.
 */
export interface OutboxKind<Queued = never, Sent = never> {
  template: EmailTemplate<Sent>;
  prepare: EmailPreparer<Sent> | null;
  attach?: EmailAttacher<Sent>;
  queued?: Queued;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table is checked where it is declared; here any kind goes
type AnyKinds = Record<string, OutboxKind<any, any>>;
type QueuedData<Kinds extends AnyKinds, K extends keyof Kinds> = NonNullable<Kinds[K]['queued']>;

export interface QueueEmail<Kinds extends AnyKinds, K extends keyof Kinds & string> {
  kind: K;
  /** The recipient; the address is read from the account in the same transaction. */
  userId: string;
  data: QueuedData<Kinds, K>;
  /** Not before this time (e.g. a message still unread after the delay). */
  sendAfter?: Date;
  /** While an email with this key waits, queueing another with it does nothing: they become one. */
  dedupeKey?: string;
  /** Another address than the account's: the new address of an email change, which must be verified first. */
  toAddress?: string;
}

/**
 * The outbox (docs/decisions/081-outbox.md): `queue` writes an email and its send job inside
 * the caller's transaction; the job renders it, checks the recipient still wants it, and hands it
 * to SMTP under a Message-ID made from the outbox id, so every attempt is the same message.
 */
export class Outbox<Kinds extends AnyKinds> {
  private readonly mailer: Mailer | undefined;
  private readonly messageIdDomain: string;
  /** Where the templates run: worker threads, off the thread that answers requests (decision 180). */
  private readonly renderer: EmailRenderer;

  constructor(
    private readonly kinds: Kinds,
    private readonly db: Db,
    private readonly jobs: JobQueue,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
    /** Where the render threads import these kinds' templates from (a table by kind), and the pool's size and timeout. */
    rendering: RenderPoolOptions,
  ) {
    this.mailer = config.mail.smtpUrl ? createSmtpMailer(config.mail.smtpUrl) : undefined;
    this.messageIdDomain = config.publicUrl.hostname;
    this.renderer = RenderPool.shared({ onError: (err) => log.warn({ err }, 'an email render thread failed'), ...rendering });
  }

  get smtpConfigured(): boolean {
    return this.mailer !== undefined;
  }

  /**
   * Writes the email and its send job in `tx`; nothing happens if the recipient has no address.
   * With a `dedupeKey`, an email already waiting under that key takes this change instead, and is
   * locked FOR SHARE until `tx` commits: its preparation (which locks it FOR UPDATE) then sees this
   * change's rows, instead of settling its content just before they commit.
   */
  async queue<K extends keyof Kinds & string>(tx: Tx, email: QueueEmail<Kinds, K>): Promise<void> {
    const [recipient] = await tx.select({ email: users.email }).from(users).where(eq(users.id, email.userId)).limit(1);
    const toAddress = email.toAddress ?? recipient?.email;
    if (!recipient || !toAddress) return;
    if (email.dedupeKey) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const [waiting] = await tx
          .select({ id: outboxEmails.id })
          .from(outboxEmails)
          .where(and(eq(outboxEmails.dedupeKey, email.dedupeKey), eq(outboxEmails.status, 'pending')))
          .for('share');
        if (waiting) return;
        if (await this.insertOne(tx, email, toAddress)) return;
        // Another change inserted one meanwhile: lock that one, or (if it is already settled) try again.
      }
      throw new Error(`Could not queue an email under ${email.dedupeKey}`);
    }
    await this.insertOne(tx, email, toAddress);
  }

  /** Inserts one email and its job; false when an email waiting under its dedupeKey took it. */
  private async insertOne<K extends keyof Kinds & string>(tx: Tx, email: QueueEmail<Kinds, K>, toAddress: string): Promise<boolean> {
    const row = this.outboxRow(email, toAddress);
    const { id, sendAfter } = row;
    const inserted = await tx
      .insert(outboxEmails)
      .values(row)
      .onConflictDoNothing({ target: outboxEmails.dedupeKey, where: sql`${outboxEmails.status} = 'pending'` })
      .returning({ id: outboxEmails.id });
    if (inserted.length === 0) return false;
    await this.jobs.enqueue(SEND_EMAIL_JOB, { outboxId: id }, { tx, startAfter: sendAfter });
    return true;
  }

  /**
   * Several emails in `tx` with three statements whatever their number (the recipients' addresses,
   * the outbox rows, their send jobs): what `queue` writes for each, for changes made in bulk.
   */
  async queueMany<K extends keyof Kinds & string>(tx: Tx, emails: QueueEmail<Kinds, K>[]): Promise<void> {
    if (emails.length === 0) return;
    const userIds = [...new Set(emails.map((e) => e.userId))];
    const recipients = await tx.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, userIds));
    const addressOf = new Map(recipients.map((r) => [r.id, r.email]));
    const rows = emails.flatMap((email) => {
      const toAddress = addressOf.get(email.userId);
      return toAddress ? [this.outboxRow(email, toAddress)] : [];
    });
    if (rows.length === 0) return;
    const inserted = await tx
      .insert(outboxEmails)
      .values(rows)
      .onConflictDoNothing({ target: outboxEmails.dedupeKey, where: sql`${outboxEmails.status} = 'pending'` })
      .returning({ id: outboxEmails.id, sendAfter: outboxEmails.sendAfter });
    await this.jobs.enqueueMany(
      SEND_EMAIL_JOB,
      inserted.map((row) => ({ data: { outboxId: row.id }, startAfter: row.sendAfter })),
      { tx },
    );
  }

  /** The row `queue` and `queueMany` write for one email, its subject made from the data as queued. */
  private outboxRow<K extends keyof Kinds & string>(email: QueueEmail<Kinds, K>, toAddress: string) {
    return {
      id: newId(),
      kind: email.kind,
      userId: email.userId,
      toAddress,
      subject: this.kinds[email.kind]!.template.subject(email.data),
      templateData: email.data as Record<string, unknown>,
      dedupeKey: email.dedupeKey ?? null,
      sendAfter: email.sendAfter ?? new Date(),
    };
  }

  /** The `email.send` job: one attempt at one email. Throwing makes pg-boss retry it later. */
  async deliver(outboxId: string): Promise<void> {
    const [row] = await this.db.select().from(outboxEmails).where(eq(outboxEmails.id, outboxId)).limit(1);
    // Already sent, skipped or given up: a repeated job sends nothing twice.
    if (!row || row.status !== 'pending' || !Object.hasOwn(this.kinds, row.kind)) return;
    const { template, prepare: preparer, attach } = this.kinds[row.kind]!;

    if (template.preference && !(await wantsEmail(this.db, row.userId, template.preference))) {
      await this.finish(row.id, { status: 'skipped', lastError: 'The recipient turned this kind of email off' });
      return;
    }

    let data = row.templateData;
    let secrets: string[] = [];
    // Prepared by an earlier attempt that may have reached the SMTP server before its process
    // died: send exactly that again, so one Message-ID always carries one content (decision 082).
    if (preparer && typeof row.templateData[PREPARED_AT] !== 'string') {
      const outcome = await this.db.transaction(async (tx) => {
        // Locked while it is prepared: a change queueing an email with the same dedupeKey waits,
        // then finds the key released below and queues an email of its own.
        const [locked] = await tx.select().from(outboxEmails).where(eq(outboxEmails.id, row.id)).for('update');
        if (!locked || locked.status !== 'pending') return 'done' as const;
        if (typeof locked.templateData[PREPARED_AT] === 'string') return { data: locked.templateData, secrets: [] };
        const prepared = await preparer(locked, tx, this.config);
        if ('skip' in prepared) {
          await tx.update(outboxEmails).set({ status: 'skipped', lastError: prepared.skip }).where(eq(outboxEmails.id, row.id));
          return 'done' as const;
        }
        if ('notBefore' in prepared) {
          await tx.update(outboxEmails).set({ sendAfter: prepared.notBefore }).where(eq(outboxEmails.id, row.id));
          await this.jobs.enqueue(SEND_EMAIL_JOB, { outboxId: row.id }, { tx, startAfter: prepared.notBefore });
          return 'done' as const;
        }
        const preparedSecrets = prepared.secrets ?? [];
        // Kept before sending, and no longer a merge target: what it says is settled. Not for
        // content holding a secret (a verification link): only its hash is ever stored, so a retry
        // of that kind mints a new link.
        if (preparedSecrets.length) return { data: prepared.send, secrets: preparedSecrets };
        const kept = { ...prepared.send, [PREPARED_AT]: new Date().toISOString() };
        await tx.update(outboxEmails).set({ templateData: kept, dedupeKey: null }).where(eq(outboxEmails.id, row.id));
        return { data: kept, secrets: [] };
      });
      if (outcome === 'done') return;
      data = outcome.data;
      secrets = outcome.secrets;
    }

    const unsubscribeUrl = template.preference
      ? new URL(
          `/api/unsubscribe?token=${createUnsubscribeToken(this.config.sessionSecret, row.userId, template.preference)}`,
          this.config.publicUrl,
        ).toString()
      : undefined;
    const unsubscribePage = unsubscribeUrl?.replace('/api/unsubscribe', '/unsubscribe');
    // On a render thread: a render that throws, hangs or kills its thread fails this attempt,
    // and the job retries it.
    const { subject, html, text } = await this.renderer.render({
      kind: row.kind,
      data,
      context: {
        publicUrl: this.config.publicUrl.toString(),
        unsubscribe: unsubscribePage ? { url: unsubscribePage, what: unsubscribeTopic[template.preference!] } : undefined,
      },
    });
    const mask = (value: string) => secrets.reduce((out, secret) => out.split(secret).join(HIDDEN), value);
    const kept = {
      subject,
      textBody: mask(text),
      htmlBody: mask(html),
      templateData: JSON.parse(mask(JSON.stringify(data))) as Record<string, unknown>,
    };

    if (!this.mailer) {
      this.log.info({ to: row.toAddress, subject }, 'email kept in the outbox: SMTP_URL is not set');
      await this.finish(row.id, { ...kept, status: 'logged' });
      return;
    }
    try {
      const attachments = attach ? await attach(data, this.db, this.config) : [];
      await this.mailer.send({
        messageId: `<${row.id}@${this.messageIdDomain}>`,
        from: this.config.mail.from,
        to: row.toAddress,
        subject,
        text,
        html,
        headers: unsubscribeUrl
          ? { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
          : {},
        attachments,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const givingUp = Date.now() - row.createdAt.getTime() >= RETRY_WINDOW_MS;
      await this.db
        .update(outboxEmails)
        .set({ attempts: sql`${outboxEmails.attempts} + 1`, lastError: message.slice(0, 500), ...(givingUp ? { status: 'failed' } : {}) })
        .where(and(eq(outboxEmails.id, row.id), eq(outboxEmails.status, 'pending')));
      if (givingUp) {
        this.log.error({ outboxId: row.id, kind: row.kind }, 'email given up after 24 hours of retries');
        return;
      }
      throw error;
    }
    await this.finish(row.id, { ...kept, status: 'sent', sentAt: new Date(), attempts: row.attempts + 1, lastError: null });
  }

  private async finish(id: string, set: Partial<typeof outboxEmails.$inferInsert> & { status: OutboxStatus }): Promise<void> {
    await this.db
      .update(outboxEmails)
      .set(set)
      .where(and(eq(outboxEmails.id, id), eq(outboxEmails.status, 'pending')));
  }

  /** The Outbox page: newest first. */
  async list(query: { status?: OutboxStatus | undefined; q?: string; page: number; pageSize: number }): Promise<OutboxPage> {
    const pattern = query.q ? likePattern(query.q) : null;
    const where = and(
      query.status ? eq(outboxEmails.status, query.status) : undefined,
      pattern ? or(ilike(outboxEmails.toAddress, pattern), ilike(outboxEmails.subject, pattern)) : undefined,
    );
    const rows = await this.db
      .select()
      .from(outboxEmails)
      .where(where)
      .orderBy(desc(outboxEmails.createdAt), desc(outboxEmails.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize);
    const [count] = await this.db.select({ n: sql<number>`count(*)::int` }).from(outboxEmails).where(where);
    return {
      emails: rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        toAddress: r.toAddress,
        subject: r.subject,
        status: r.status,
        attempts: r.attempts,
        lastError: r.lastError,
        textBody: r.textBody,
        sendAfter: r.sendAfter.toISOString(),
        sentAt: r.sentAt?.toISOString() ?? null,
        createdAt: r.createdAt.toISOString(),
      })),
      total: count?.n ?? 0,
      page: query.page,
      pageSize: query.pageSize,
      smtpConfigured: this.smtpConfigured,
    };
  }

  /** After the jobs have stopped: closes the SMTP connections and ends the render threads. */
  async close(): Promise<void> {
    this.mailer?.close();
    await this.renderer.close();
  }
}

/** How the footer names what the unsubscribe link turns off. */
const unsubscribeTopic = {
  statusChanges: 'your submissions',
  messages: 'new messages',
  deliveries: 'deliveries',
  digest: 'the daily digest',
} as const;

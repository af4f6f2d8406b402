import { and, asc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { deliveries, deliveryComments, outboxEmails, users } from '../../platform/db/schema';
import { PREPARED_AT, type EmailPreparer } from '../../platform/email/outbox';
import { commentAuthorName } from '../production/to-delivery-comment';
import type { DeliveryCommentsData } from './templates/delivery-comments';

/** At most this many comments are quoted in one email; the rest are counted. */
const MAX_QUOTED = 10;

/**
 * What a "comments on the cut" email says when it goes out (CONTRACT §17): the other side's
 * comments on this submission that the recipient's side has still not read and that were in no
 * earlier such email. None left → no email; the oldest younger than the delay → it waits.
 */
export const gatherDeliveryComments: EmailPreparer<DeliveryCommentsData & { commentIds: string[] }> = async (row, db, config) => {
  const queued = row.templateData as unknown as DeliveryCommentsData;
  const [recipient] = await db.select({ role: users.role }).from(users).where(eq(users.id, row.userId)).limit(1);
  if (!recipient) return { skip: 'The recipient is gone' };
  const reported = and(
    eq(outboxEmails.userId, row.userId),
    eq(outboxEmails.kind, 'delivery_comments'),
    or(inArray(outboxEmails.status, ['sent', 'logged']), and(eq(outboxEmails.status, 'pending'), sql`${outboxEmails.templateData} ? ${PREPARED_AT}`)),
  );
  const unread = await db
    .select({
      id: deliveryComments.id,
      text: deliveryComments.text,
      atSeconds: deliveryComments.atSeconds,
      createdAt: deliveryComments.createdAt,
      authorRole: deliveryComments.authorRole,
      version: deliveries.version,
      author: { firstName: users.firstName, lastName: users.lastName, artistName: users.artistName },
    })
    .from(deliveryComments)
    .innerJoin(deliveries, eq(deliveries.id, deliveryComments.deliveryId))
    .leftJoin(users, eq(users.id, deliveryComments.authorId))
    .where(
      and(
        eq(deliveryComments.submissionId, queued.submissionId),
        ne(deliveryComments.authorRole, recipient.role),
        isNull(deliveryComments.readAt),
        sql`not exists (select 1 from ${outboxEmails} where ${reported} and ${outboxEmails.templateData}->'commentIds' ? ${deliveryComments.id})`,
      ),
    )
    .orderBy(asc(deliveryComments.createdAt), asc(deliveryComments.id));
  if (unread.length === 0) return { skip: 'Every comment was read in time' };
  const due = new Date(unread[0]!.createdAt.getTime() + config.mail.messageDelayS * 1000);
  if (due.getTime() > Date.now()) return { notBefore: due };
  return {
    send: {
      submissionId: queued.submissionId,
      songTitle: queued.songTitle,
      comments: unread.slice(0, MAX_QUOTED).map((c) => ({
        authorName: commentAuthorName(c.author, c.authorRole),
        version: c.version,
        atSeconds: c.atSeconds,
        text: c.text,
      })),
      total: unread.length,
      path: recipient.role === 'admin' ? `/admin?submission=${queued.submissionId}` : `/dashboard?submission=${queued.submissionId}`,
      commentIds: unread.map((c) => c.id),
    },
  };
};

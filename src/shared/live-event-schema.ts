import { z } from 'zod';
import type { Message } from './messages';
import { ARTIST_ACTIVITY_KINDS } from './artist-activity';
import { SUBMISSION_STATUSES } from './submissions';

/**
 * What the live socket carries (CONTRACT §7), as one zod schema: the server checks every event
 * against it where it is produced (platform/realtime/hub.ts), the client types what it receives
 * from it (live-events.ts re-exports the type). Kept out of live-events.ts, which the client's
 * first load imports without zod (issue 16's page budgets).
 */
export const liveEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), userId: z.string() }),
  // The message as the API answers it; its two users are checked for their ids, the rest of them
  // is the public user (auth.ts) and passes as written.
  z.object({
    type: z.literal('new_message'),
    message: z
      .object({
        id: z.string(),
        fromUserId: z.string(),
        // Null: an artist's message to the label team (CONTRACT §18).
        toUserId: z.string().nullable(),
        artistId: z.string().nullable(),
        submissionId: z.string().nullable(),
        content: z.string(),
        isRead: z.boolean(),
        createdAt: z.string(),
        fromUser: z.looseObject({ id: z.string() }),
        toUser: z.looseObject({ id: z.string() }).nullable(),
        attachments: z.array(
          z.object({ objectPath: z.string(), fileName: z.string().nullable(), contentType: z.string(), size: z.number().nullable() }),
        ),
        submission: z.object({ id: z.string(), songTitle: z.string(), status: z.enum(SUBMISSION_STATUSES) }).nullable(),
      })
      .transform((m) => m as unknown as Message),
  }),
  z.object({ type: z.literal('messages_read'), userId: z.string() }),
  z.object({ type: z.literal('resync') }),
  // A comment on a delivery (CONTRACT §17) as it now stands, when it is posted and when it is
  // resolved or reopened: to the submission's owner and the team, who replace it by its id.
  z.object({
    type: z.literal('delivery_comment'),
    submissionId: z.string(),
    comment: z.object({
      id: z.string(),
      deliveryId: z.string(),
      fileId: z.string().nullable(),
      atSeconds: z.number().nullable(),
      text: z.string(),
      replyTo: z.string().nullable(),
      author: z.object({ id: z.string().nullable(), name: z.string(), role: z.enum(['user', 'admin']) }),
      createdAt: z.string(),
      resolved: z.boolean(),
    }),
  }),
  // A submission's status changed, or it was sent to the label or deleted: to its artist and the
  // team, so the dashboard and the desk refetch it (status null: it is gone).
  z.object({ type: z.literal('submission_changed'), submissionId: z.string(), status: z.enum(SUBMISSION_STATUSES).nullable() }),
  // The artist did something the team should hear (issue 33 part 4): to every admin, whose desk
  // row and header count it until they have seen it.
  z.object({ type: z.literal('artist_activity'), submissionId: z.string(), kind: z.enum(ARTIST_ACTIVITY_KINDS), at: z.string() }),
]);

export type LiveEvent = z.output<typeof liveEventSchema>;

import { TEAM_NAME } from '@shared/messages';
import type { DeliveryComment } from '@shared/production';
import { displayName } from '@shared/users';
import { users, type DeliveryCommentRow } from '../../platform/db/schema';

/**
 * A comment on a delivery as both sides are shown it (CONTRACT §17), for the comment routes and
 * the account export alike: its author named as in the product, or by their side once the
 * account is gone.
 */

/** The author's columns to join for `toDeliveryComment`. */
export const commentAuthorColumns = { id: users.id, firstName: users.firstName, lastName: users.lastName, artistName: users.artistName };
type AuthorColumns = { id: string; firstName: string | null; lastName: string | null; artistName: string | null } | null;

/** Who wrote a comment, as both sides see it (the comment thread, its email, the account export). */
export function commentAuthorName(author: Omit<NonNullable<AuthorColumns>, 'id'> | null, role: DeliveryCommentRow['authorRole']): string {
  return (author && displayName(author)) || (role === 'admin' ? TEAM_NAME : 'The artist');
}

export function toDeliveryComment(row: DeliveryCommentRow, author: AuthorColumns): DeliveryComment {
  return {
    id: row.id,
    deliveryId: row.deliveryId,
    fileId: row.fileId,
    atSeconds: row.atSeconds,
    text: row.text,
    replyTo: row.replyTo,
    author: {
      id: author?.id ?? null,
      name: commentAuthorName(author, row.authorRole),
      role: row.authorRole,
    },
    createdAt: row.createdAt.toISOString(),
    resolved: row.resolved,
  };
}

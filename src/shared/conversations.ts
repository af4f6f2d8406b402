/**
 * Whose conversation a message belongs to, without zod (./messages holds the wire schemas): the
 * live connection that every signed-in page opens needs these, and a first page should not carry
 * zod for them (issue 37, decision 181). ./messages re-exports them.
 */

/**
 * The label team as the other side of an artist's conversation (CONTRACT §18): the id the
 * artist's list and links use; `GET /api/messages/{anyAdminId}` names the same conversation.
 */
export const TEAM_CONVERSATION_ID = 'team';

/** Who a message is from and to, as ./messages' Message has them. */
type MessageEnds = { fromUserId: string; toUserId: string | null; artistId: string | null };

type Viewer = { id: string; role: string };

/**
 * The id under which the viewer names the conversation a message belongs to (the `with` of
 * /messages): the artist for the team, the team for the artist, the other person otherwise.
 */
export function conversationIdFor(message: MessageEnds, viewer: Viewer): string | null {
  if (message.artistId) return viewer.role === 'admin' ? message.artistId : TEAM_CONVERSATION_ID;
  return message.fromUserId === viewer.id ? message.toUserId : message.fromUserId;
}

/** Whether the message waits for the viewer to read it: the client's side of the server's waitingFor. */
export function isWaitingFor(message: MessageEnds & { isRead: boolean }, viewer: Viewer): boolean {
  if (message.isRead) return false;
  if (message.artistId) {
    return viewer.role === 'admin' ? message.fromUserId === message.artistId : message.artistId === viewer.id && message.fromUserId !== viewer.id;
  }
  return message.toUserId === viewer.id;
}

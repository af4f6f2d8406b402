import { useEffect, useRef } from 'react';
import { isThreadOnScreen } from '@client/entities/message/open-thread';
import { apiRequest, errorCodeOf } from '@client/lib/api';
import { USER_QUERY_KEY, useAuth } from '@client/lib/auth';
import { isSigningOut, queryClient } from '@client/lib/query-client';
import { toast } from '@client/lib/toast';
import { LiveConnection } from './live-connection';
import { refreshMessages } from '@client/entities/message/message-queries';
import { receiveDeliveryComment } from '@client/entities/submission/delivery-comments-queries';
import { senderName, type LiveEvent } from '@shared/live-events';
import { conversationIdFor, isWaitingFor } from '@shared/messages';

/**
 * A submission changed (CONTRACT §7's submission_changed, sent to its artist and the team): the
 * artist's dashboard and the team's desk read it again. Queries are keyed by their API path
 * (lib/api.ts's defaultQueryFn), so these prefixes are the reads that show submissions.
 */
const SUBMISSION_READS = ['/api/submissions', '/api/stats', '/api/admin/submissions'];
const refreshSubmissionReads = () =>
  queryClient.invalidateQueries({
    predicate: ({ queryKey: [path] }) => typeof path === 'string' && SUBMISSION_READS.some((prefix) => path.startsWith(prefix)),
  });

/** Re-checking the session after failed reconnects; not more often than this. */
const SESSION_CHECK_INTERVAL_MS = 15_000;

/**
 * The live connection of a signed-in session (CONTRACT §7): one socket for as long as the user is
 * signed in. A new_message refreshes the messages queries and, when it is addressed to the user and
 * they are not looking at that thread, shows the 'New Message' notice; a submission_changed
 * refreshes the submission reads; a delivery_comment (new, resolved or reopened) updates the
 * delivery's comments. After a reconnect everything
 * is refetched, since pushes sent meanwhile were missed.
 */
function useLiveMessages(user: { id: string; role: 'user' | 'admin' } | null): void {
  const userId = user?.id ?? null;
  const role = user?.role ?? 'user';
  const lastSessionCheck = useRef(0);
  useEffect(() => {
    if (!userId) return;
    const connection = new LiveConnection(userId, {
      onEvent: (event: LiveEvent) => {
        if (event.type === 'new_message') {
          void refreshMessages();
          const { message } = event;
          // What waits for this user (for the team: every artist's message) and is not on screen.
          const viewer = { id: userId, role };
          if (isWaitingFor(message, viewer) && !isThreadOnScreen(conversationIdFor(message, viewer))) {
            toast({ title: 'New Message', description: `Message from ${senderName(message.fromUser)}` });
          }
        } else if (event.type === 'messages_read' || event.type === 'resync') {
          void refreshMessages();
        } else if (event.type === 'submission_changed') {
          void refreshSubmissionReads();
        } else if (event.type === 'delivery_comment') {
          receiveDeliveryComment(event.submissionId, event.comment);
        }
      },
      onReconnected: () => void refreshMessages(),
      onTrouble: (sessionEnded) => {
        const now = Date.now();
        if (!sessionEnded && now - lastSessionCheck.current < SESSION_CHECK_INTERVAL_MS) return;
        lastSessionCheck.current = now;
        void returnToSignInIfSignedOut();
      },
    });
    return () => connection.close();
  }, [userId, role]);
}

/**
 * Only a definite 401 counts: a server restarting or a network drop must not sign anyone out, and
 * the app treats every failed user query as signed out.
 */
async function returnToSignInIfSignedOut(): Promise<void> {
  // Signing out closes the connection on purpose; the browser is already leaving for /auth.
  if (isSigningOut()) return;
  try {
    await apiRequest('GET', '/api/user', undefined, { cache: 'no-store' });
  } catch (error) {
    // Offline or the server down: the connection keeps retrying.
    if (errorCodeOf(error) === 'unauthorized') await queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
  }
}

/** Mounted once inside the signed-in routes. */
export function LiveMessages() {
  const { user } = useAuth();
  useLiveMessages(user ? { id: user.id, role: user.role } : null);
  return null;
}

import { useEffect, useRef } from 'react';
import { isThreadOnScreen } from '@client/entities/message/open-thread';
import { receiveDeliveryComment } from '@client/entities/submission/delivery-comments-queries';
import { apiRequest, errorCodeOf } from '@client/lib/api';
import { USER_QUERY_KEY, useAuth } from '@client/lib/auth';
import { isSigningOut, queryClient } from '@client/lib/query-client';
import { toast } from '@client/lib/toast';
import { senderName, type LiveEvent } from '@shared/live-events';
import { conversationIdFor, isWaitingFor } from '@shared/conversations';
import { LiveConnection } from './live-connection';
import { ALL_LIVE_READS, LIVE_EVENT_READS, invalidateLiveReads } from './live-reads';

/** Re-checking the session after failed reconnects; not more often than this. */
const SESSION_CHECK_INTERVAL_MS = 15_000;

/**
 * What one live event does to this browser's data (CONTRACT §7): the reads it names
 * (live-reads.ts) are read again, and some events do more on the spot: a delivery comment is
 * put into its thread as it arrives, and a message waiting for this user that is not on screen
 * shows SPEC §2's 'New Message' notice.
 */
export function receiveLiveEvent(event: LiveEvent, viewer: { id: string; role: 'user' | 'admin' }): Promise<void> {
  if (event.type === 'new_message') {
    const { message } = event;
    // What waits for this user (for the team: every artist's message) and is not on screen.
    if (isWaitingFor(message, viewer) && !isThreadOnScreen(conversationIdFor(message, viewer))) {
      toast({ title: 'New Message', description: `Message from ${senderName(message.fromUser)}` });
    }
  } else if (event.type === 'delivery_comment') {
    receiveDeliveryComment(event.submissionId, event.comment);
  }
  return invalidateLiveReads(LIVE_EVENT_READS[event.type]);
}

/**
 * The one owner of the live socket (issue 33 part 3): one connection for as long as someone is
 * signed in. Each event is handed to receiveLiveEvent; after a reconnect every live-backed read
 * is read again, since whatever was pushed meanwhile was missed. A new live-backed screen needs
 * nothing from here: its query belongs to a group of live-reads.ts by its API path.
 */
function useLiveData(user: { id: string; role: 'user' | 'admin' } | null): void {
  const userId = user?.id ?? null;
  const role = user?.role ?? 'user';
  const lastSessionCheck = useRef(0);
  useEffect(() => {
    if (!userId) return;
    const viewer = { id: userId, role };
    const connection = new LiveConnection(userId, {
      onEvent: (event) => void receiveLiveEvent(event, viewer),
      onReconnected: () => void invalidateLiveReads(ALL_LIVE_READS),
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

/** Mounted once inside the signed-in routes (app.tsx). */
export function LiveData() {
  const { user } = useAuth();
  useLiveData(user ? { id: user.id, role: user.role } : null);
  return null;
}

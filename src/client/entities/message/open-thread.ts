import { useEffect } from 'react';

/**
 * Whose conversation is on screen right now (the Messages screen's thread, or the desk's
 * conversation panel): their new messages raise no 'New Message' notice.
 */
let openThreadUserId: string | null = null;

/** Called by a screen that shows the conversation with `userId` (null when none). */
export function useOpenThread(userId: string | null): void {
  useEffect(() => {
    openThreadUserId = userId;
    return () => {
      if (openThreadUserId === userId) openThreadUserId = null;
    };
  }, [userId]);
}

/** Whether the conversation with `userId` is on screen. */
export function isThreadOnScreen(userId: string | null): boolean {
  return openThreadUserId === userId;
}

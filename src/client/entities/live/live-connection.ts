import { CLOSE_SESSION_ENDED, type LiveEvent } from '@shared/live-events';

const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 30_000;

interface LiveConnectionHandlers {
  onEvent(event: LiveEvent): void;
  /** The socket is open again after a loss: whatever was pushed meanwhile was missed. */
  onReconnected(): void;
  /** A connection attempt failed or the session ended: the sign-in may be gone. */
  onTrouble(sessionEnded: boolean): void;
}

/**
 * One WebSocket to /ws on the page's own host (wss when the page is https), reopened with
 * exponential backoff and jitter after any loss, at once when the browser comes back online or the
 * tab becomes visible again. SPEC §7's auth message is sent on open; the server ignores its user id
 * in favour of the session cookie.
 */
export class LiveConnection {
  private socket: WebSocket | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private attempt = 0;
  private everReady = false;
  private closed = false;

  constructor(
    private readonly userId: string,
    private readonly handlers: LiveConnectionHandlers,
  ) {
    window.addEventListener('online', this.reconnectNow);
    document.addEventListener('visibilitychange', this.onVisibility);
    this.open();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    window.removeEventListener('online', this.reconnectNow);
    document.removeEventListener('visibilitychange', this.onVisibility);
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000);
  }

  private open(): void {
    if (this.closed || this.socket) return;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
    const socket = new WebSocket(url);
    this.socket = socket;
    let ready = false;

    socket.onopen = () => socket.send(JSON.stringify({ type: 'auth', userId: this.userId }));
    socket.onmessage = (message) => {
      let event: LiveEvent;
      try {
        event = JSON.parse(String(message.data)) as LiveEvent;
      } catch {
        return;
      }
      if (event.type === 'ready') {
        ready = true;
        this.attempt = 0;
        if (this.everReady) this.handlers.onReconnected();
        this.everReady = true;
        return;
      }
      this.handlers.onEvent(event);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      // A refused upgrade (signed out) looks like any failed connection to a browser: let the app re-check.
      if (event.code === CLOSE_SESSION_ENDED || !ready) this.handlers.onTrouble(event.code === CLOSE_SESSION_ENDED);
      this.scheduleRetry();
    };
  }

  private scheduleRetry(): void {
    clearTimeout(this.retryTimer);
    if (this.closed) return;
    if (!navigator.onLine) return; // the 'online' event reopens it
    const base = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** this.attempt);
    this.attempt++;
    this.retryTimer = setTimeout(() => this.open(), base / 2 + Math.random() * (base / 2));
  }

  private readonly reconnectNow = () => {
    if (this.closed || this.socket) return;
    clearTimeout(this.retryTimer);
    this.open();
  };

  private readonly onVisibility = () => {
    if (document.visibilityState === 'visible') this.reconnectNow();
  };
}

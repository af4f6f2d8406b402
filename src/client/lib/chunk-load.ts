/**
 * Loading the app's lazy parts (CONTRACT §23 "the app never goes blank"). A lazy chunk fails to
 * load for two reasons a browser cannot tell apart: the network dropped, or a release replaced
 * the files and this page still names the old hashes (404). Online, the page reloads itself once
 * to pick up the new release; offline, or when a reload already happened a moment ago, the error
 * reaches the nearest error boundary, which offers a retry.
 */

/** sessionStorage key holding when this tab last reloaded for a missing chunk. */
const RELOADED_AT_KEY = 'chunk-reload:at';
/** A second failure within this time after a reload is not fixed by reloading again. */
const RELOAD_GUARD_MS = 60_000;

/** A lazy part that could not be fetched (as opposed to one that threw while running). */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
}

/**
 * Chromium: "Failed to fetch dynamically imported module"; Firefox: "error loading dynamically
 * imported module"; Safari: "Importing a module script failed"; Vite's preload of a chunk's CSS
 * or dependencies: "Unable to preload CSS" / "Failed to fetch".
 */
export function isChunkLoadFailure(error: unknown): boolean {
  if (error instanceof ChunkLoadError) return true;
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|importing a module script failed|unable to preload|failed to fetch/i.test(message);
}

function reloadedRecently(now: number): boolean {
  try {
    const at = Number(sessionStorage.getItem(RELOADED_AT_KEY));
    return Number.isFinite(at) && now - at < RELOAD_GUARD_MS;
  } catch {
    // Storage refused (private mode): never loop, so count it as reloaded.
    return true;
  }
}

/**
 * Reloads the page for a chunk that failed to load, at most once per RELOAD_GUARD_MS and only
 * online (offline, a reload would show the browser's own error page). True when it reloads.
 */
export function reloadOnceForNewRelease(): boolean {
  const now = Date.now();
  if (!navigator.onLine || reloadedRecently(now)) return false;
  try {
    sessionStorage.setItem(RELOADED_AT_KEY, String(now));
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}

/**
 * `load` with the rule above: a failed fetch either reloads the page (and never settles, so
 * nothing renders an error meanwhile) or rejects with a ChunkLoadError for the error boundary.
 */
export function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  return load().catch((error: unknown) => {
    if (!isChunkLoadFailure(error)) throw error;
    if (reloadOnceForNewRelease()) return new Promise<T>(() => {});
    throw new ChunkLoadError(error instanceof Error ? error.message : String(error));
  });
}

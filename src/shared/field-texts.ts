/**
 * The texts of CONTRACT §23 "In the field": what the app says when the network or a release gets
 * in its way. One place, read by the client and by the browser tests that look for them.
 */

/** An upload row's state in words (the wizard and every uploader). */
export const UPLOAD_STATE_TEXTS = {
  uploading: 'Uploading...',
  offline: 'Offline — will resume',
  resuming: 'Resuming…',
  retrying: 'Connection lost — retrying…',
  processing: 'Checking the file…',
  fileChanged: 'Upload failed: the file changed',
  failed: 'Upload failed',
} as const;

/** An error boundary's message: a part of the page that could not load or broke. */
export const PART_FAILED_TEXTS = {
  /** The part's code could not be fetched (offline, or a dropped request). */
  loadTitle: 'This part of the page could not load',
  loadHint: 'Check your connection, then try again.',
  /** The part threw while showing. */
  crashTitle: 'Something went wrong here',
  crashHint: 'Try again; if it keeps happening, reload the page.',
  retry: 'Try again',
  reload: 'Reload page',
} as const;

import type { ToastInput } from '@client/lib/toast';

/** The admin screens' toasts (SPEC §8), letter for letter. */
export const ADMIN_TOASTS = {
  statusUpdated: (label: string): ToastInput => ({ title: 'Status Updated', description: `The submission is now ${label}.` }),
  statusFailed: { title: 'Error', description: 'Failed to update status. Please try again.', variant: 'destructive' },
  notesSaved: { title: 'Notes Saved', description: 'Your internal notes have been saved.' },
  notesFailed: { title: 'Error', description: 'Failed to save notes. Please try again.', variant: 'destructive' },
  deleted: { title: 'Submission Deleted', description: 'The submission and its files have been removed.' },
  deleteFailed: { title: 'Error', description: 'Failed to delete submission. Please try again.', variant: 'destructive' },
  downloadStarted: (n: number): ToastInput => ({
    title: 'Download Started',
    description: `${n} file(s) are being downloaded to your device.`,
  }),
  noFiles: {
    title: 'No Files Available',
    description: 'No valid files found to download for this submission.',
    variant: 'destructive',
  },
} satisfies Record<string, ToastInput | ((...args: never[]) => ToastInput)>;

/** The artist's AI answer (CONTRACT §22), as the desk's details show it. */
export const AI_USAGE_TEXTS = {
  yes: 'Yes: the artist says AI tools made part of the music, vocals or lyrics (uploaded as synthetic media)',
  no: 'No',
} as const;

/** The details' section jumps on a phone (issue 43 item 9); `id`s of the sections' wrappers. */
export const DETAILS_JUMPS_LABEL = 'Jump to';
export const DETAILS_JUMPS = [
  { id: 'desk-rights', label: 'Rights' },
  { id: 'desk-production', label: 'Production' },
  { id: 'desk-publishing', label: 'Publishing' },
] as const;

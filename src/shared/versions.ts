import { z } from 'zod';
import { MAX_NEW_VERSIONS } from './submissions';
import { httpUrl, objectPathSchema } from './submission-schemas';

/**
 * Revise and resubmit (CONTRACT §27, decision 197): the versions of a submission's music (or
 * video). The submission row always holds the current version; every version, the original
 * (round 1) included, is kept in `submission_versions` and its file is never overwritten.
 */

export const VERSION_NOTE_MAX = 2000;

export const VERSION_TEXTS = {
  /** The body names neither a file nor a link, or names both. */
  oneSource: 'Send either an uploaded file (objectPath) or a link (url)',
  notRequested: 'A new version can be sent only when the label has requested changes',
  limitReached: `This submission already has ${MAX_NEW_VERSIONS} new versions, the most a submission can have`,
  /** The desk's and the artist's headings. */
  heading: 'Versions',
  uploadHeading: 'Upload a new version',
  uploadDescription: 'The label asked for changes. Send the new version here: your plan and payment carry over, nothing is charged.',
  sent: { title: 'New Version Sent', description: 'The label has your new version and will review it again.' },
  failed: { title: 'Error', description: 'Failed to send the new version. Please try again.' },
  roundLabel: (round: number) => (round === 1 ? 'Round 1 (original)' : `Round ${round}`),
} as const;

/**
 * The desk's own template for asking for changes (CONTRACT §14's placeholders), offered in the
 * status dialog when Changes Requested is chosen and the review is still empty.
 */
export const CHANGES_REQUESTED_TEMPLATE =
  'Hi {artistName}, we like "{songTitle}" and would love to hear it again with a few changes:\n\n- \n\nOur comments on the track point at the places. Send the new version from your submission\'s details: your plan and payment carry over, nothing is charged.';

/** POST /api/submissions/{id}/versions: a checked upload of the owner's, or an http(s) link; a note on what changed. */
export const newVersionSchema = z
  .object({
    objectPath: objectPathSchema.nullish(),
    url: httpUrl.nullish(),
    note: z
      .string({ message: 'note must be text' })
      .trim()
      .max(VERSION_NOTE_MAX, `The note must be at most ${VERSION_NOTE_MAX} characters`)
      .nullish()
      .transform((v) => v || null),
  })
  .superRefine((v, ctx) => {
    if (!v.objectPath === !v.url) ctx.addIssue({ code: 'custom', path: ['objectPath'], message: VERSION_TEXTS.oneSource });
  });
export type NewVersionInput = z.input<typeof newVersionSchema>;

/** GET /api/submissions/{id}/versions: one per round, oldest first. */
export interface SubmissionVersion {
  round: number;
  createdAt: string;
  note: string | null;
  /** An uploaded file: its name as uploaded and where it is served; a link: its URL. */
  fileName: string | null;
  url: string | null;
  objectPath: string | null;
  /** The version the submission holds now (the last round). */
  current: boolean;
}

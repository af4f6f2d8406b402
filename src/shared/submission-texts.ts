/**
 * Two submission texts the error table says too. They live apart from submissions.ts so that the
 * table, which every page loads (the sign-in page included), does not pull that module's rules and
 * lists into the first chunk; submissions.ts re-exports them.
 */

/** Said when an artist tries to delete a submission the label has licensed. */
export const LICENSED_SUBMISSION_MESSAGE = "Approved submissions are licensed to the label and can't be deleted. Message the label team.";

/** Said on the plan step of a finished video, and by the server when one asks for a paid plan. */
export const VIDEO_PLAN_TEXT =
  'Publishing a finished video is free. The paid plans pay for work on a video the label makes (images, clips, a delivery deadline, revisions), so they do not apply to a video published as it is.';

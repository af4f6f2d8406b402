import { LICENSED_SUBMISSION_MESSAGE, VIDEO_PLAN_TEXT } from './submission-texts';
import { RIGHTS_MESSAGES } from './rights-texts';
import { INVALID_LINK_MESSAGE } from './auth-texts';
import type { ErrorCode } from './error-codes';

// The codes alone, for the browser (decision 202).
export { ERROR_CODES, isErrorCode, type ErrorCode } from './error-codes';

/**
 * The one list of error codes the API answers with (docs/product.md#api-conventions). Every error
 * body is `{message, code}`: `code` is what code branches on, `message` is what a person reads.
 * Each code always comes with the same HTTP status; where the message never varies it is here too,
 * so it is written once. Messages that are product texts of one feature stay with that feature.
 *
 * Add a code here (under its area) rather than reusing a generic one when a client could want to
 * tell the case apart.
 */
const UPLOAD_URL_GONE = 'This upload URL has expired or was already used';

export const API_ERRORS = {
  // Any route
  validation_failed: { status: 400 },
  invalid_json: { status: 400, message: 'The request body is not valid JSON' },
  bad_request: { status: 400 },
  unauthorized: { status: 401, message: 'Unauthorized' },
  admin_only: { status: 403, message: "You don't have admin privileges" },
  cross_origin: { status: 403, message: 'Cross-origin request refused' },
  forbidden: { status: 403, message: 'Forbidden' },
  route_not_found: { status: 404 },
  not_found: { status: 404, message: 'Not found' },
  conflict: { status: 409 },
  body_too_large: { status: 413, message: 'The request body is too large' },
  unsupported_media_type: { status: 415, message: 'Unsupported content type' },
  rate_limited: { status: 429 },
  // NUL or an unpaired surrogate anywhere in the body, query or path (CONTRACT §9).
  unsafe_text: { status: 400, message: 'Text must not contain NUL characters or unpaired surrogates' },
  invalid_url: { status: 400, message: 'The request URL is not valid' },
  // A paging cursor the server did not make (or made for another list).
  invalid_cursor: { status: 400, message: 'The page cursor is not valid' },
  internal: { status: 500, message: 'Internal server error' },
  database_unavailable: { status: 503, message: 'Database unavailable' },
  // More sign-ins at once than the server can check passwords for; answered with Retry-After.
  server_busy: { status: 503 },

  // Accounts
  invalid_credentials: { status: 401, message: 'Invalid email or password' },
  email_taken: { status: 409, message: 'An account with this email already exists' },
  too_many_sign_in_attempts: { status: 429 },
  user_not_found: { status: 404, message: 'User not found' },
  plan_not_offered: { status: 400, message: VIDEO_PLAN_TEXT },
  mail_configured: { status: 409, message: 'A mail server is configured: the person confirms their address with the link they were sent' },
  email_already_confirmed: { status: 409, message: 'This email address is already confirmed' },
  // CONTRACT §11
  invalid_reset_link: { status: 400, message: INVALID_LINK_MESSAGE },
  wrong_password: { status: 400 },
  no_password: { status: 400 },
  session_not_found: { status: 404, message: 'Session not found' },
  last_admin: { status: 409 },

  // Submissions
  submission_not_found: { status: 404, message: 'Submission not found' },
  file_not_yours: { status: 400 },
  // CONTRACT §12: drafts, withdrawal by the licence, the tier change.
  draft_already_submitted: {
    status: 409,
    message: 'This submission has already been sent to the label and can no longer be edited as a draft',
  },
  submission_licensed: { status: 409, message: LICENSED_SUBMISSION_MESSAGE },
  tier_change_not_allowed: { status: 409, message: 'The plan can only be changed while the payment is still due' },

  // Uploads
  upload_not_found: { status: 404, message: 'Upload not found' },
  // The uploader asks for a fresh URL and tries again after `upload_url_expired`, never after `upload_url_used`.
  upload_url_expired: { status: 403, message: UPLOAD_URL_GONE },
  upload_url_used: { status: 403, message: UPLOAD_URL_GONE },
  upload_in_progress: { status: 409, message: 'This file is already being uploaded' },
  upload_being_checked: { status: 409, message: 'This file is being checked' },
  upload_length_required: { status: 400, message: 'Upload-Length must give the file size' },
  // Resumable (tus) uploads: the protocol's refusals in the API's shape (decision 147).
  tus_version_unsupported: { status: 412, message: 'Tus-Resumable must be 1.0.0' },
  // A parallel upload in parts (tus concatenation) asks for an extension the server does not list.
  upload_concat_not_supported: { status: 400, message: 'Uploads in parallel parts are not supported: send the file as one upload' },
  invalid_upload_header: { status: 400 },
  // The client resumes from the offset a HEAD gives.
  upload_offset_conflict: { status: 409, message: 'Upload-Offset does not match the bytes received so far' },
  // tus's checksum extension: the chunk was thrown away, the offset is where it was (460 is the protocol's).
  upload_checksum_mismatch: { status: 460, message: 'The bytes sent do not match their Upload-Checksum: they were discarded, send them again' },
  upload_not_received: { status: 400, message: 'The file has not been uploaded yet' },
  not_an_upload: { status: 400, message: 'Not a file uploaded to this site' },
  file_too_large: { status: 413 },
  file_type_not_allowed: { status: 415 },
  file_not_found: { status: 404, message: 'File not found' },
  // A Range none of whose ranges starts inside the file; answered with `Content-Range: bytes */{size}`.
  range_not_satisfiable: { status: 416, message: 'The requested range is not satisfiable' },

  // Review desk (CONTRACT §14)
  assignee_not_admin: { status: 400, message: 'The assignee must be an admin' },
  // More than TAGS_PER_SUBMISSION_MAX tags on a submission, e.g. after a bulk add (src/shared/review-desk.ts).
  too_many_tags: { status: 400 },
  template_not_found: { status: 404, message: 'Template not found' },
  template_name_taken: { status: 409, message: 'A template with this name already exists' },
  waveform_not_found: { status: 404, message: 'No waveform for this submission' },

  // Revise and resubmit (CONTRACT §27): texts in src/shared/versions.ts
  changes_not_requested: { status: 409 },
  versions_exhausted: { status: 409 },

  // After approval (CONTRACT §13)
  deliverable_not_found: { status: 404, message: 'File not found' },
  deliverable_not_usable: { status: 400 },
  not_delivered_yet: { status: 409 },
  revisions_exhausted: { status: 409 },
  not_refundable: { status: 409 },
  not_ready_to_publish: { status: 409, message: 'Only an approved submission can be published' },
  subscriber_count_required: { status: 400, message: 'Enter the channel’s subscriber count at publishing' },
  not_published: { status: 409, message: 'This submission has not been published yet' },
  not_suspect: { status: 409, message: 'Only a suspect viral hit waits for a decision' },
  views_too_early: { status: 409 },
  video_not_publishable: { status: 400, message: 'Choose a video the team delivered for this submission, or the artist’s own video file' },
  already_publishing: { status: 409, message: 'This submission is already being published on the channel' },
  not_publishing: { status: 409, message: 'Only a publication waiting or uploading can be cancelled' },
  channel_not_connected: { status: 409, message: "Connect the label's YouTube channel first" },
  youtube_unavailable: { status: 503, message: 'The YouTube Data API could not be reached. Try again in a moment.' },
  // CONTRACT §21: a withdrawal or delete of paid work whose refund Stripe refused; nothing was deleted.
  refund_failed: { status: 502 },
  stripe_unavailable: { status: 503, message: 'Stripe could not be reached. Try again in a moment.' },
  earning_not_found: { status: 404, message: 'Earning not found' },
  // CONTRACT §25: the hit this earning depended on was withdrawn before it was paid.
  earning_void: { status: 409, message: 'This earning is void: the viral hit it depended on no longer counts' },
  // CONTRACT §28: webhooks.
  webhook_not_found: { status: 404, message: 'Webhook endpoint not found' },
  webhook_url_private: { status: 400 },
  webhook_limit: { status: 409 },
  // CONTRACT §22: rights before release.
  rights_incomplete: { status: 409 },
  owners_frozen: { status: 409, message: 'The owners can no longer be changed: the submission was approved' },
  agreement_not_ready: { status: 409, message: 'The licence agreement is made once the submission is approved' },
  already_signed: { status: 409, message: 'This owner has already signed the agreement' },
  nothing_to_sign: { status: 409 },
  signing_link_not_found: { status: 404, message: 'This signing link is not valid' },
  signing_link_gone: { status: 410, message: 'This signing link was already used or has expired' },
  disclosure_changed: { status: 409, message: RIGHTS_MESSAGES.disclosureChanged },
  signed_copy_gone: { status: 410, message: 'This download has expired: your signed copy was emailed to you' },
  // CONTRACT §17: comments on a delivery and the artist's approval of a cut.
  delivery_not_found: { status: 404, message: 'Delivery not found' },
  delivery_comment_not_found: { status: 404, message: 'Comment not found' },
  comment_target_invalid: { status: 400 },
  approval_by_artist_only: { status: 403, message: 'Only the artist approves the cut' },
  cut_not_latest: { status: 409, message: 'Only the latest delivery can be approved' },
  earning_paid_by_transfer: {
    status: 409,
    message: 'This earning was paid by a Stripe transfer; it stays paid. Reverse the transfer in Stripe if it was a mistake.',
  },
  nothing_to_transfer: { status: 409, message: 'This earning is $0.00: there is nothing to transfer.' },
  payout_account_not_active: {
    status: 409,
    message:
      'This artist has not finished connecting a Stripe payout account, so no transfer can be made. Ask them to connect payouts under Settings → Billing, or mark the earning paid by hand.',
  },
  transfer_refused: { status: 409 },
  payouts_for_artists: { status: 403, message: 'Bonus payouts are for artists' },
  // CONTRACT §24: every owner paid, with papers.
  payee_link_gone: { status: 410, message: 'This link has expired or is not valid. Ask for a fresh one.' },
  payee_not_found: { status: 404, message: 'Payee not found' },
  owner_not_found: { status: 404, message: 'Owner not found' },
  owner_has_email: { status: 409, message: 'This owner already has an email address' },
  owner_is_artist: { status: 409, message: 'You are paid through your own account: the first owner needs no email' },
  owners_not_final: { status: 409, message: 'An email can be added to an owner once the submission is approved' },
  tax_form_not_found: { status: 404, message: 'No tax form on file' },
  statement_not_found: { status: 404, message: 'No payments in that year' },
  no_email_to_invite: { status: 409, message: 'This payee has no email address to send a link to' },

  // Messages
  recipient_not_found: { status: 404, message: 'Recipient not found' },
  artists_message_team_only: { status: 403, message: 'Artists can only message the label team' },
  cannot_message_self: { status: 400, message: 'You cannot message yourself' },
  attachment_not_found: { status: 400, message: 'Attach files you uploaded yourself' },

  // Payments
  payments_not_configured: { status: 503, message: 'Card payments are not configured' },
  webhooks_not_configured: { status: 503, message: 'Stripe webhooks are not configured' },
  invalid_signature: { status: 400 },
  not_a_paid_tier: { status: 400, message: 'This submission is on the free plan and needs no payment' },
  not_awaiting_payment: { status: 400, message: 'This submission is not awaiting payment' },
  already_paid: { status: 409, message: 'This submission has already been paid' },
  payment_in_progress: { status: 409, message: 'A payment for this submission is already being processed' },
  receipt_not_ready: { status: 409, message: 'This payment has not been confirmed yet' },
  // Invoices and credit notes (CONTRACT §19): the message says which document is not there yet.
  document_not_found: { status: 404 },

  // Email (CONTRACT §10)
  invalid_unsubscribe_link: { status: 400, message: 'This unsubscribe link is invalid' },
} as const satisfies Record<ErrorCode, { status: number; message?: string }>;

/** Codes whose message never varies, so callers may leave it out. */
type FixedMessageCode = { [C in ErrorCode]: (typeof API_ERRORS)[C] extends { message: string } ? C : never }[ErrorCode];

/** The fixed message of a code, e.g. `errorText('submission_not_found')` → 'Submission not found'. */
export function errorText(code: FixedMessageCode): string {
  return (API_ERRORS[code] as { message: string }).message;
}

/** One refused field of a validation error. */
export interface FieldError {
  path: string;
  message: string;
}

/** Every error body (docs/product.md#api-conventions). */
export interface ApiErrorBody {
  message: string;
  code: ErrorCode;
  errors?: FieldError[];
  /** rights_incomplete (CONTRACT §22): what publishing still waits for. */
  missing?: string[];
}

/**
 * The codes of src/shared/errors.ts's API_ERRORS, alone: what the browser needs to tell a code it
 * knows from one it does not (client/lib/api.ts), without the messages, which the server sends
 * in every error body. The table's messages and the texts they come from were 3.4 KB of every
 * first page's compressed JavaScript (issue 50, decision 202). errors.ts's table must have exactly
 * these keys: the compiler checks it both ways, so a new code is added here and there.
 */
export const ERROR_CODES = [
  'validation_failed', 'invalid_json', 'bad_request', 'unauthorized', 'admin_only', 'cross_origin',
  'forbidden', 'route_not_found', 'not_found', 'conflict', 'body_too_large', 'unsupported_media_type',
  'rate_limited', 'unsafe_text', 'invalid_url', 'invalid_cursor', 'internal', 'database_unavailable',
  'server_busy',
  'invalid_credentials', 'email_taken', 'too_many_sign_in_attempts', 'user_not_found', 'plan_not_offered',
  'mail_configured', 'email_already_confirmed', 'invalid_reset_link', 'wrong_password', 'no_password',
  'session_not_found', 'last_admin',
  'submission_not_found', 'file_not_yours', 'draft_already_submitted', 'submission_licensed',
  'tier_change_not_allowed',
  'upload_not_found', 'upload_url_expired', 'upload_url_used', 'upload_in_progress', 'upload_being_checked',
  'upload_length_required', 'tus_version_unsupported', 'upload_concat_not_supported',
  'invalid_upload_header', 'upload_offset_conflict', 'upload_checksum_mismatch', 'upload_not_received',
  'not_an_upload', 'file_too_large', 'file_type_not_allowed', 'file_not_found', 'range_not_satisfiable',
  'assignee_not_admin', 'too_many_tags', 'template_not_found', 'template_name_taken', 'waveform_not_found',
  'changes_not_requested', 'versions_exhausted',
  'deliverable_not_found', 'deliverable_not_usable', 'not_delivered_yet', 'revisions_exhausted',
  'not_refundable', 'not_ready_to_publish', 'subscriber_count_required', 'not_published', 'not_suspect',
  'views_too_early', 'video_not_publishable', 'already_publishing', 'not_publishing',
  'channel_not_connected', 'youtube_unavailable', 'refund_failed', 'stripe_unavailable', 'earning_not_found',
  'earning_void', 'webhook_not_found', 'webhook_url_private', 'webhook_limit', 'rights_incomplete',
  'owners_frozen', 'agreement_not_ready', 'already_signed', 'nothing_to_sign', 'signing_link_not_found',
  'signing_link_gone', 'disclosure_changed', 'signed_copy_gone', 'delivery_not_found',
  'delivery_comment_not_found', 'comment_target_invalid', 'approval_by_artist_only', 'cut_not_latest',
  'earning_paid_by_transfer', 'nothing_to_transfer', 'payout_account_not_active', 'transfer_refused',
  'payouts_for_artists', 'payee_link_gone', 'payee_not_found', 'owner_not_found', 'owner_has_email',
  'owner_is_artist', 'owners_not_final', 'tax_form_not_found', 'statement_not_found', 'no_email_to_invite',
  'recipient_not_found', 'artists_message_team_only', 'cannot_message_self', 'attachment_not_found',
  'payments_not_configured', 'webhooks_not_configured', 'invalid_signature', 'not_a_paid_tier',
  'not_awaiting_payment', 'already_paid', 'payment_in_progress', 'receipt_not_ready', 'document_not_found',
  'invalid_unsubscribe_link',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && KNOWN.has(value);
}

/**
 * What an artist does that the label team should hear at once (issue 33 part 4, decision 174):
 * each is recorded by one domain verb (server/domain/submission/artist-activity.ts), pushed live
 * to the team, and counted on the desk's row and in the header until an admin has seen it.
 */
export const ARTIST_ACTIVITY_KINDS = ['delivery_comment', 'reply', 'cut_approved', 'agreement_signed', 'withdrawn', 'new_version'] as const;
export type ArtistActivityKind = (typeof ARTIST_ACTIVITY_KINDS)[number];

/** One kind in words, as the badge's tooltip names the latest. */
export const ARTIST_ACTIVITY_TEXTS: Record<ArtistActivityKind, string> = {
  delivery_comment: 'commented on a cut',
  reply: 'replied to a comment',
  cut_approved: 'approved the cut',
  agreement_signed: 'signed the agreement',
  withdrawn: 'withdrew the submission',
  new_version: 'sent a new version',
};

/** GET /api/admin/activity: what this admin has not seen yet, per submission. */
export interface UnseenActivity {
  total: number;
  submissions: {
    submissionId: string;
    songTitle: string;
    count: number;
    latestKind: ArtistActivityKind;
    latestAt: string;
    /** Withdrawn (deleted) since: no desk row shows it, so opening the desk counts as seeing it. */
    gone: boolean;
  }[];
}

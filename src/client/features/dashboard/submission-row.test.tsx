import { QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { SubmissionListItem } from '@shared/submission-schemas';
import { TooltipProvider } from '@client/components/ui/tooltip';
import { queryClient } from '@client/lib/query-client';
import { SubmissionRow } from './submission-row';

afterEach(() => queryClient.clear());

const item = (overrides: Partial<SubmissionListItem>): SubmissionListItem => ({
  id: 'sub-1',
  userId: 'artist-1',
  submissionType: 'track',
  submissionMethod: 'link',
  musicUrl: 'https://example.com/track',
  musicFileUrl: null,
  videoUrl: null,
  videoFileUrl: null,
  artworkUrl: null,
  releaseStatus: 'unreleased',
  releaseDate: null,
  releaseDateOption: null,
  artistName: 'Mara Lindqvist',
  songTitle: 'Paper Lanterns',
  hasLyrics: false,
  lyricsLanguage: null,
  lyrics: null,
  description: null,
  aiUsage: false,
  videoStyle: 'non-custom',
  styleReferenceUrls: [],
  characterImageUrls: [],
  creativeDirection: null,
  pricingTier: 'free',
  publishOnYoutube: true,
  termsAccepted: true,
  status: 'pending',
  adminReview: null,
  adminReviewedAt: null,
  adminReviewedBy: null,
  stripePaymentIntentId: null,
  paymentStatus: null,
  amount: '0.00',
  genre: null,
  mood: null,
  draftStep: null,
  hasUnseenUpdate: false,
  dueAt: null,
  deliveredAt: null,
  refundReason: null,
  refundRequestedAt: null,
  stripeRefundId: null,
  termsHash: null,
  termsAcceptedAt: null,
  approvedDeliveryId: null,
  cutApprovedAt: null,
  owners: [{ name: 'Mara Lindqvist', email: null, role: 'artist', share: 100 }],
  contentId: 'unknown',
  distributor: null,
  isrc: null,
  allowlistDoneAt: null,
  round: 1,
  decisionDueAt: '2026-12-04T12:00:00.000Z',
  createdAt: '2026-11-20T12:00:00.000Z',
  updatedAt: '2026-11-20T12:00:00.000Z',
  queuePosition: null,
  agreementAwaitsArtist: false,
  ...overrides,
});

/** The row as the dashboard draws it; with the reads it would make, as the queries it asked for. */
function draw(submission: SubmissionListItem) {
  const html = renderToStaticMarkup(
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <table>
          <tbody>
            <SubmissionRow submission={submission} onView={() => {}} />
          </tbody>
        </table>
      </TooltipProvider>
    </QueryClientProvider>,
  );
  const reads = queryClient
    .getQueryCache()
    .getAll()
    .filter((query) => (query.options as { enabled?: unknown }).enabled !== false)
    .map((query) => query.queryKey[0]);
  return { text: html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' '), html, reads };
}

describe('a dashboard row', () => {
  it('shows the decision date and the place in the queue from the list, asking for nothing of its own', () => {
    const { text, reads } = draw(item({ queuePosition: 3 }));
    expect(text).toContain('Decision by December 4, 2026 · Number 3 in the queue');
    // The only read a row shares with every other: the public config (one for the page).
    expect(reads).toEqual(['/api/config']);
    expect(draw(item({ id: 'sub-2', queuePosition: 1 })).text).toContain('Next in the queue');
  });

  it('asks for the signature when the list says the agreement waits for the artist, and reads the agreement only when its dialog opens', () => {
    const approved = { status: 'approved' as const, decisionDueAt: null };
    const asked = draw(item({ ...approved, agreementAwaitsArtist: true }));
    expect(asked.html).toContain('aria-label="Sign the licence agreement of Paper Lanterns"');
    expect(asked.reads).toEqual(['/api/config']);
    queryClient.clear();
    const signed = draw(item({ ...approved, agreementAwaitsArtist: false }));
    expect(signed.html).not.toContain('data-testid="agreement-button"');
    expect(signed.text).not.toContain('Decision by');
    expect(signed.reads).toEqual(['/api/config']);
  });
});

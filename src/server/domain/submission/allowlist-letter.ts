import type { Db } from '../../platform/db/client';
import { youtubeChannels, type AgreementRow, type AgreementSignatureRow, type SubmissionRow } from '../../platform/db/schema';
import { agreementStatusOf } from './agreement';
import { renderAllowlistLetter } from './agreement-pdf';

/**
 * The allowlist letter of `submission` (CONTRACT §22) for the label's channel: the one connected,
 * else the one configured (YOUTUBE_CHANNEL_ID). Null when neither is known. The team downloads it
 * alone and finds it in the evidence pack.
 */
export async function allowlistLetterFor(
  db: Db,
  submission: Pick<SubmissionRow, 'distributor' | 'songTitle' | 'artistName' | 'isrc'>,
  facts: {
    labelName: string | undefined;
    configuredChannelId: string | undefined;
    agreement: AgreementRow | undefined;
    signatures: Pick<AgreementSignatureRow, 'signedAt'>[];
    date: Date;
  },
): Promise<Buffer | null> {
  const [connected] = await db.select({ id: youtubeChannels.channelId, title: youtubeChannels.title }).from(youtubeChannels).limit(1);
  const channel = connected ?? (facts.configuredChannelId ? { id: facts.configuredChannelId, title: null } : null);
  if (!channel) return null;
  return renderAllowlistLetter({
    labelName: facts.labelName,
    channel,
    distributor: submission.distributor,
    songTitle: submission.songTitle,
    artistName: submission.artistName,
    isrc: submission.isrc,
    agreement: facts.agreement ? { sha256: facts.agreement.sha256, status: agreementStatusOf(facts.signatures) } : null,
    date: facts.date,
  });
}

import { XMLBuilder } from 'fast-xml-parser';
import type { Owner, OwnerRole } from '@shared/rights';

/**
 * The DDEX ERN 4.3 `NewReleaseMessage` of one approved submission (CONTRACT §28, decision 198):
 * the Audio Single profile (a Video Single for a finished video), one track, built as an object
 * tree and serialised by fast-xml-parser's builder, which escapes every text and attribute — no
 * XML is ever put together from strings here. Element order follows the ERN 4.3 schema.
 */
export const ERN_NAMESPACE = 'http://ddex.net/xml/ern/43';
const SCHEMA_LOCATION = `${ERN_NAMESPACE} http://ddex.net/xml/ern/43/release-notification.xsd`;

export interface PackagedFile {
  /** The path of the file inside the ZIP, as the message's `URI` names it. */
  uri: string;
  md5: string;
  contentType: string;
}

export interface ReleaseFacts {
  messageId: string;
  createdAt: Date;
  labelName: string;
  /** The label's DDEX Party Id (DPID), when it has one (`DDEX_PARTY_ID`). */
  senderDpid: string | undefined;
  submissionId: string;
  songTitle: string;
  artistName: string;
  isrc: string | null;
  genre: string | null;
  releaseDate: string | null;
  owners: Owner[];
  /** The music file, or for a finished video the video file; null when the submission is a link. */
  main: (PackagedFile & { kind: 'audio' | 'video'; durationSeconds: number | null }) | null;
  artwork: PackagedFile | null;
}

/** An owner's §22 role as an ERN 4.3 contributor role (AVS ContributorRole). */
export const CONTRIBUTOR_ROLES: Record<OwnerRole, string> = {
  artist: 'Artist',
  writer: 'ComposerLyricist',
  producer: 'Producer',
  featured: 'FeaturedArtist',
  other: 'Contributor',
};

/** ISO 8601 duration, as ERN writes one: PT3M25S. */
export function isoDuration(seconds: number | null): string {
  const total = Math.max(0, Math.round(seconds ?? 0));
  return `PT${Math.floor(total / 60)}M${total % 60}S`;
}

/** The ISRC without its dashes, as ERN carries it (CC-XXX-YY-NNNNN → CCXXXYYNNNNN). */
export const plainIsrc = (isrc: string) => isrc.replaceAll('-', '').toUpperCase();

const AUDIO_CODECS: Record<string, string> = {
  'audio/mpeg': 'MP3',
  'audio/mp3': 'MP3',
  'audio/wav': 'PCM',
  'audio/x-wav': 'PCM',
  'audio/wave': 'PCM',
  'audio/flac': 'FLAC',
  'audio/x-flac': 'FLAC',
  'audio/aac': 'AAC',
  'audio/mp4': 'AAC',
  'audio/ogg': 'Vorbis',
};
const IMAGE_CODECS: Record<string, string> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/gif': 'GIF', 'image/webp': 'WebP' };

const fileOf = (file: PackagedFile) => ({
  URI: file.uri,
  HashSum: { Algorithm: 'MD5', HashSumValue: file.md5 },
});

const text = (value: string) => ({ '#text': value });

/** The message as XML text (UTF-8, with its declaration). */
export function buildReleaseXml(facts: ReleaseFacts): string {
  const labelRef = 'PLabel';
  const partyRefs = facts.owners.map((_, i) => `P${i + 1}`);
  const mainArtistIndex = Math.max(
    0,
    facts.owners.findIndex((o) => o.role === 'artist'),
  );
  const artistRef = partyRefs[mainArtistIndex] ?? 'P1';
  const featured = facts.owners.map((o, i) => ({ o, ref: partyRefs[i]! })).filter(({ o }) => o.role === 'featured');
  const displayArtists = [
    { '@_SequenceNumber': '1', ArtistPartyReference: artistRef, DisplayArtistRole: 'MainArtist' },
    ...featured.map(({ ref }, i) => ({ '@_SequenceNumber': String(i + 2), ArtistPartyReference: ref, DisplayArtistRole: 'FeaturedArtist' })),
  ];
  const contributors = facts.owners.map((owner, i) => ({
    '@_SequenceNumber': String(i + 1),
    ContributorPartyReference: partyRefs[i],
    Role: CONTRIBUTOR_ROLES[owner.role],
  }));
  const isVideo = facts.main?.kind === 'video';
  const recordingId = facts.isrc ? { ISRC: plainIsrc(facts.isrc) } : { ProprietaryId: { '@_Namespace': 'DPID:label-submission-hub', '#text': facts.submissionId } };
  const year = facts.createdAt.getUTCFullYear();

  const soundRecording = {
    ResourceReference: 'A1',
    Type: 'MusicalWorkSoundRecording',
    SoundRecordingEdition: {
      ResourceId: recordingId,
      PLine: { Year: String(year), PLineText: `(P) ${year} ${facts.labelName}` },
      ...(facts.main && !isVideo
        ? {
            TechnicalDetails: {
              TechnicalResourceDetailsReference: 'T1',
              DeliveryFile: {
                Type: 'AudioFile',
                AudioCodecType: AUDIO_CODECS[facts.main.contentType.toLowerCase()] ?? 'Unknown',
                File: fileOf(facts.main),
              },
            },
          }
        : {}),
    },
    DisplayTitleText: text(facts.songTitle),
    DisplayTitle: { TitleText: facts.songTitle },
    DisplayArtistName: text(facts.artistName),
    DisplayArtist: displayArtists,
    Contributor: contributors,
    Duration: isoDuration(facts.main?.durationSeconds ?? null),
    ParentalWarningType: 'Unknown',
  };

  const video =
    facts.main && isVideo
      ? {
          ResourceReference: 'A3',
          Type: 'ShortFormMusicalWorkVideo',
          VideoEdition: {
            ResourceId: { ProprietaryId: { '@_Namespace': 'DPID:label-submission-hub', '#text': `${facts.submissionId}-video` } },
            TechnicalDetails: {
              TechnicalResourceDetailsReference: 'T3',
              DeliveryFile: { Type: 'VideoFile', File: fileOf(facts.main) },
            },
          },
          DisplayTitleText: text(facts.songTitle),
          DisplayTitle: { TitleText: facts.songTitle },
          DisplayArtistName: text(facts.artistName),
          DisplayArtist: displayArtists,
          Duration: isoDuration(facts.main.durationSeconds),
          ParentalWarningType: 'Unknown',
        }
      : null;

  const image = facts.artwork
    ? {
        ResourceReference: 'A2',
        Type: 'FrontCoverImage',
        ResourceId: { ProprietaryId: { '@_Namespace': 'DPID:label-submission-hub', '#text': `${facts.submissionId}-artwork` } },
        ParentalWarningType: 'NotExplicit',
        TechnicalDetails: {
          TechnicalResourceDetailsReference: 'T2',
          ImageCodecType: IMAGE_CODECS[facts.artwork.contentType.toLowerCase()] ?? 'Unknown',
          File: fileOf(facts.artwork),
        },
      }
    : null;

  const primaryRef = video ? 'A3' : 'A1';
  const release = {
    ReleaseReference: 'R0',
    ReleaseType: isVideo ? 'VideoSingle' : 'Single',
    ReleaseId: { ProprietaryId: { '@_Namespace': 'DPID:label-submission-hub', '#text': facts.submissionId } },
    DisplayTitleText: text(facts.songTitle),
    DisplayTitle: { TitleText: facts.songTitle },
    DisplayArtistName: text(facts.artistName),
    DisplayArtist: displayArtists,
    ReleaseLabelReference: labelRef,
    PLine: { Year: String(year), PLineText: `(P) ${year} ${facts.labelName}` },
    Genre: { GenreText: facts.genre ?? 'Unknown' },
    ...(facts.releaseDate ? { ReleaseDate: facts.releaseDate } : {}),
    ParentalWarningType: 'Unknown',
    ResourceGroup: {
      ResourceGroup: {
        SequenceNumber: '1',
        ResourceGroupContentItem: { SequenceNumber: '1', ReleaseResourceReference: primaryRef },
      },
      ...(image ? { LinkedReleaseResourceReference: 'A2' } : {}),
    },
  };

  const message = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    'ern:NewReleaseMessage': {
      '@_xmlns:ern': ERN_NAMESPACE,
      '@_xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      '@_xsi:schemaLocation': SCHEMA_LOCATION,
      '@_ReleaseProfileVersionId': isVideo ? 'VideoSingle' : 'Audio',
      '@_LanguageAndScriptCode': 'en',
      '@_AvsVersionId': '4',
      MessageHeader: {
        MessageThreadId: facts.messageId,
        MessageId: facts.messageId,
        MessageSender: {
          ...(facts.senderDpid ? { PartyId: facts.senderDpid } : {}),
          PartyName: { FullName: facts.labelName },
        },
        MessageCreatedDateTime: facts.createdAt.toISOString(),
        MessageControlType: 'LiveMessage',
      },
      PartyList: {
        Party: [
          ...facts.owners.map((owner, i) => ({ PartyReference: partyRefs[i], PartyName: { FullName: owner.name } })),
          { PartyReference: labelRef, PartyName: { FullName: facts.labelName } },
        ],
      },
      ResourceList: {
        SoundRecording: soundRecording,
        ...(video ? { Video: video } : {}),
        ...(image ? { Image: image } : {}),
      },
      ReleaseList: { Release: release },
      DealList: '',
    },
  };

  const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, indentBy: '  ', suppressEmptyNode: true });
  return builder.build(message) as string;
}

import type { UseFormReturn } from 'react-hook-form';
import type { CreateSubmissionInput, DraftSubmissionInput, OwnSubmission } from '@shared/submission-schemas';
import type { PricingTier, ReleaseDateOption, ReleaseStatus, SubmissionMethod, SubmissionType, VideoStyle } from '@shared/submissions';
import { isHttpLink, releaseDateOptionsFor } from '@shared/submissions';
import { RIGHTS_MESSAGES, isrcSchema, ownersSchema, type ContentIdAnswer, type OwnerRole } from '@shared/rights';

/** One row of the wizard's split sheet, as typed (CONTRACT §22). */
export interface OwnerRowValues {
  name: string;
  email: string;
  role: OwnerRole;
  share: number;
}

/** What the wizard edits; saved as a draft as the artist goes, and sent once the terms are ticked. */
export interface WizardValues {
  submissionType: SubmissionType;
  submissionMethod: SubmissionMethod;
  musicUrl: string;
  musicFileUrl: string;
  videoUrl: string;
  videoFileUrl: string;
  artworkUrl: string;
  releaseStatus: ReleaseStatus;
  releaseDateOption: ReleaseDateOption;
  releaseDate: string;
  artistName: string;
  songTitle: string;
  genre: string;
  mood: string;
  hasLyrics: boolean;
  lyricsLanguage: string;
  lyrics: string;
  description: string;
  aiUsage: boolean;
  videoStyle: VideoStyle;
  styleReferenceUrls: string[];
  characterImageUrls: string[];
  creativeDirection: string;
  pricingTier: PricingTier;
  termsAccepted: boolean;
  /** CONTRACT §22: the owners (the artist first) and the Content ID questions. */
  owners: OwnerRowValues[];
  contentId: ContentIdAnswer;
  distributor: string;
  isrc: string;
}

export type WizardForm = UseFormReturn<WizardValues>;

export type WizardStepId = 'media' | 'details' | 'style' | 'plan' | 'review';

/**
 * SPEC §2's five steps for a track. A finished video skips Video Style: the style, reference images
 * and creative direction describe the video the label would make, and this one is made already.
 */
const STEPS: Record<SubmissionType, readonly WizardStepId[]> = {
  track: ['media', 'details', 'style', 'plan', 'review'],
  video: ['media', 'details', 'plan', 'review'],
};

export const STEP_TITLES: Record<WizardStepId, (type: SubmissionType) => string> = {
  media: (type) => (type === 'video' ? 'Video & Artwork' : 'Music & Artwork'),
  details: () => 'Song Details',
  style: () => 'Video Style',
  // SPEC's submission wizard names the steps letter for letter; the description under it says it is the plan picker.
  plan: () => 'Complete',
  review: () => 'Review',
};

export const wizardSteps = (type: SubmissionType): readonly WizardStepId[] => STEPS[type];

export function defaultWizardValues(artistName: string): WizardValues {
  return {
    submissionType: 'track',
    submissionMethod: 'upload',
    musicUrl: '',
    musicFileUrl: '',
    videoUrl: '',
    videoFileUrl: '',
    artworkUrl: '',
    releaseStatus: 'unreleased',
    releaseDateOption: 'undecided',
    releaseDate: '',
    artistName,
    songTitle: '',
    genre: '',
    mood: '',
    hasLyrics: false,
    lyricsLanguage: '',
    lyrics: '',
    description: '',
    aiUsage: false,
    videoStyle: 'non-custom',
    styleReferenceUrls: [],
    characterImageUrls: [],
    creativeDirection: '',
    pricingTier: 'free',
    termsAccepted: false,
    owners: [soleOwnerRow(artistName)],
    contentId: 'unknown',
    distributor: '',
    isrc: '',
  };
}

const soleOwnerRow = (artistName: string): OwnerRowValues => ({ name: artistName, email: '', role: 'artist', share: 100 });

/** The owners as sent: each row trimmed, an empty email as none. */
const ownersOut = (owners: OwnerRowValues[]) => owners.map((o) => ({ name: o.name.trim(), email: o.email.trim() || null, role: o.role, share: o.share }));

/** Do the owners make a valid split sheet (shares adding up to 100, each row complete)? */
export const ownersComplete = (owners: OwnerRowValues[]) => ownersSchema.safeParse(ownersOut(owners)).success;
export const isrcValid = (isrc: string) => isrcSchema.safeParse(isrc).success;

/** A saved draft back in the wizard's shape. */
export function wizardValuesOf(s: OwnSubmission): WizardValues {
  return {
    submissionType: s.submissionType,
    submissionMethod: s.submissionMethod,
    musicUrl: s.musicUrl ?? '',
    musicFileUrl: s.musicFileUrl ?? '',
    videoUrl: s.videoUrl ?? '',
    videoFileUrl: s.videoFileUrl ?? '',
    artworkUrl: s.artworkUrl ?? '',
    releaseStatus: s.releaseStatus,
    releaseDateOption: s.releaseDateOption ?? 'undecided',
    releaseDate: s.releaseDate ?? '',
    artistName: s.artistName,
    songTitle: s.songTitle,
    genre: s.genre ?? '',
    mood: s.mood ?? '',
    hasLyrics: s.hasLyrics,
    lyricsLanguage: s.lyricsLanguage ?? '',
    lyrics: s.lyrics ?? '',
    description: s.description ?? '',
    aiUsage: s.aiUsage,
    videoStyle: s.videoStyle,
    styleReferenceUrls: s.styleReferenceUrls,
    characterImageUrls: s.characterImageUrls,
    creativeDirection: s.creativeDirection ?? '',
    pricingTier: s.pricingTier,
    termsAccepted: s.termsAccepted,
    owners: s.owners.map((o) => ({ name: o.name, email: o.email ?? '', role: o.role, share: o.share })),
    contentId: s.contentId,
    distributor: s.distributor ?? '',
    isrc: s.isrc ?? '',
  };
}

/** SPEC §2/§5: may the person leave this step? */
/**
 * What keeps the artist on this step, in words shown next to the greyed Next button; null when
 * they may go on. The first thing missing, in the order the step asks for it.
 */
export function stepBlocker(step: WizardStepId, v: WizardValues): string | null {
  if (step === 'media') {
    const video = v.submissionType === 'video';
    const [url, file] = video ? [v.videoUrl, v.videoFileUrl] : [v.musicUrl, v.musicFileUrl];
    const what = video ? 'video' : 'music';
    if (v.submissionMethod === 'link' && !isHttpLink(url)) return `Add a link to your ${what} (starting with https://)`;
    if (v.submissionMethod !== 'link' && file === '') return `Upload your ${what} file`;
    if (missingReleaseDate(v)) return 'Choose the release date';
    return null;
  }
  if (step === 'details') {
    if (v.artistName.trim() === '') return 'Give the artist name';
    if (v.songTitle.trim() === '') return 'Give the song title';
    if (missingLyrics(v)) return 'Add the lyrics, or untick “has lyrics”';
    if (!ownersComplete(v.owners)) return ownersProblem(v.owners);
    if (!isrcValid(v.isrc)) return RIGHTS_MESSAGES.isrc;
    return null;
  }
  return null;
}

export const canLeaveStep = (step: WizardStepId, v: WizardValues): boolean => stepBlocker(step, v) === null;

/** The split sheet's first problem, as the server would word it. */
function ownersProblem(owners: OwnerRowValues[]): string {
  const parsed = ownersSchema.safeParse(ownersOut(owners));
  return parsed.success ? '' : `Owners: ${parsed.error.issues[0]?.message ?? RIGHTS_MESSAGES.sharesTotal}`;
}

/** The lyrics box is ticked but the lyrics are empty (SPEC §5: "required"; the server refuses it too). */
export const missingLyrics = (v: Pick<WizardValues, 'hasLyrics' | 'lyrics'>) => v.hasLyrics && v.lyrics.trim() === '';

/** "Specific date" is chosen for an unreleased track but no date is given. */
export const missingReleaseDate = (v: Pick<WizardValues, 'releaseStatus' | 'releaseDateOption' | 'releaseDate'>) =>
  v.releaseStatus === 'unreleased' && v.releaseDateOption === 'specific' && v.releaseDate === '';

/** Only what the chosen options make relevant is sent: one media source, style only for a track. */
function relevantFields(v: WizardValues) {
  const video = v.submissionType === 'video';
  const custom = !video && v.videoStyle === 'custom';
  const link = v.submissionMethod === 'link';
  return {
    submissionType: v.submissionType,
    submissionMethod: v.submissionMethod,
    musicUrl: !video && link ? v.musicUrl.trim() : null,
    musicFileUrl: !video && !link ? v.musicFileUrl || null : null,
    videoUrl: video && link ? v.videoUrl.trim() : null,
    videoFileUrl: video && !link ? v.videoFileUrl || null : null,
    artworkUrl: v.artworkUrl || null,
    releaseStatus: v.releaseStatus,
    ...releaseDateOf(v),
    artistName: v.artistName,
    songTitle: v.songTitle,
    genre: v.genre || null,
    mood: v.mood,
    hasLyrics: v.hasLyrics,
    lyricsLanguage: v.hasLyrics ? v.lyricsLanguage : null,
    lyrics: v.hasLyrics ? v.lyrics : null,
    description: v.description,
    aiUsage: v.aiUsage,
    videoStyle: video ? undefined : v.videoStyle,
    styleReferenceUrls: custom ? v.styleReferenceUrls : [],
    characterImageUrls: custom ? v.characterImageUrls : [],
    creativeDirection: custom ? v.creativeDirection : null,
    pricingTier: v.pricingTier,
    publishOnYoutube: true,
    owners: ownersOut(v.owners),
    contentId: v.contentId,
    distributor: v.contentId === 'no' ? null : v.distributor.trim() || null,
    isrc: v.isrc.trim() || null,
  };
}

export function toSubmissionInput(v: WizardValues): CreateSubmissionInput {
  return { ...relevantFields(v), termsAccepted: v.termsAccepted as true };
}

/**
 * What a draft saves: what a submission would send, plus a track's style choices even while
 * "non-custom" is picked (switching back finds them again), the terms box and `draftStep`, the
 * step to resume at.
 */
export function toDraftInput(v: WizardValues, draftStep: number): DraftSubmissionInput {
  const video = v.submissionType === 'video';
  return {
    ...relevantFields(v),
    videoStyle: v.videoStyle,
    styleReferenceUrls: video ? [] : v.styleReferenceUrls,
    characterImageUrls: video ? [] : v.characterImageUrls,
    creativeDirection: video ? null : v.creativeDirection,
    termsAccepted: v.termsAccepted,
    draftStep,
    // A draft keeps the rows complete so far (a row being typed is saved once it has a name and a share).
    owners: ownersOut(v.owners).filter((o) => o.name !== '' && o.share > 0 && o.share <= 100 && (o.email === null || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(o.email))),
    isrc: isrcValid(v.isrc) ? v.isrc.trim() || null : null,
  };
}

/** The release date as sent: a released track has only its date, if given (see releaseDateOptionsFor). */
function releaseDateOf(v: Pick<WizardValues, 'releaseStatus' | 'releaseDateOption' | 'releaseDate'>) {
  const option = releaseDateOptionsFor(v.releaseStatus).includes(v.releaseDateOption) ? v.releaseDateOption : 'specific';
  const date = option === 'specific' ? v.releaseDate || null : null;
  return { releaseDateOption: v.releaseStatus === 'released' && !date ? null : option, releaseDate: date };
}

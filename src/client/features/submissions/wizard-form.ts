import type { UseFormReturn } from 'react-hook-form';
import type { CreateSubmissionInput } from '@shared/submission-schemas';
import type { PricingTier } from '@shared/submissions';

/** What the wizard edits; sent as POST /api/submissions once the terms are ticked. */
export interface WizardValues {
  submissionMethod: 'link' | 'upload';
  musicUrl: string;
  musicFileUrl: string;
  artworkUrl: string;
  releaseStatus: 'released' | 'unreleased';
  releaseDateOption: 'specific' | 'undecided' | 'asap';
  releaseDate: string;
  artistName: string;
  songTitle: string;
  hasLyrics: boolean;
  lyricsLanguage: string;
  lyrics: string;
  description: string;
  aiUsage: boolean;
  videoStyle: 'custom' | 'non-custom';
  styleReferenceUrls: string[];
  characterImageUrls: string[];
  creativeDirection: string;
  pricingTier: PricingTier;
  termsAccepted: boolean;
}

export type WizardForm = UseFormReturn<WizardValues>;

export const WIZARD_STEPS = ['Music & Artwork', 'Song Details', 'Video Style', 'Complete', 'Review'] as const;

export function defaultWizardValues(artistName: string): WizardValues {
  return {
    submissionMethod: 'upload',
    musicUrl: '',
    musicFileUrl: '',
    artworkUrl: '',
    releaseStatus: 'unreleased',
    releaseDateOption: 'undecided',
    releaseDate: '',
    artistName,
    songTitle: '',
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
  };
}

/** SPEC §2/§5: may the person leave this step (1-based)? */
export function canLeaveStep(step: number, v: WizardValues): boolean {
  if (step === 1) return v.submissionMethod === 'link' ? v.musicUrl.trim() !== '' : v.musicFileUrl !== '';
  if (step === 2) return v.artistName.trim() !== '' && v.songTitle.trim() !== '';
  return true;
}

/** Only what the chosen options make relevant is sent. */
export function toSubmissionInput(v: WizardValues): CreateSubmissionInput {
  const custom = v.videoStyle === 'custom';
  return {
    submissionMethod: v.submissionMethod,
    musicUrl: v.submissionMethod === 'link' ? v.musicUrl.trim() : null,
    musicFileUrl: v.submissionMethod === 'upload' ? v.musicFileUrl : null,
    artworkUrl: v.artworkUrl || null,
    releaseStatus: v.releaseStatus,
    releaseDateOption: v.releaseDateOption,
    releaseDate: v.releaseDateOption === 'specific' ? v.releaseDate || null : null,
    artistName: v.artistName,
    songTitle: v.songTitle,
    hasLyrics: v.hasLyrics,
    lyricsLanguage: v.hasLyrics ? v.lyricsLanguage : null,
    lyrics: v.hasLyrics ? v.lyrics : null,
    description: v.description,
    aiUsage: v.aiUsage,
    videoStyle: v.videoStyle,
    styleReferenceUrls: custom ? v.styleReferenceUrls : [],
    characterImageUrls: custom ? v.characterImageUrls : [],
    creativeDirection: custom ? v.creativeDirection : null,
    pricingTier: v.pricingTier,
    publishOnYoutube: true,
    termsAccepted: v.termsAccepted as true,
  };
}

import { describe, expect, it } from 'vitest';
import type { OwnSubmission } from '@shared/submission-schemas';
import { withLinkScheme } from '@shared/submissions';
import { canLeaveStep, defaultWizardValues, stepBlocker, toDraftInput, toSubmissionInput, wizardSteps, wizardValuesOf, type WizardValues } from './wizard-form';

const blank = defaultWizardValues('Nora Vex');
const track: WizardValues = {
  ...blank,
  musicFileUrl: '/objects/uploads/m1',
  musicUrl: 'https://example.com/left-over-link',
  videoUrl: 'https://example.com/video',
  songTitle: 'Night Drive',
  hasLyrics: false,
  lyrics: 'left over',
  lyricsLanguage: 'English',
  videoStyle: 'custom',
  styleReferenceUrls: ['/objects/uploads/s1'],
  characterImageUrls: ['/objects/uploads/c1'],
  creativeDirection: 'Neon',
  releaseDateOption: 'undecided',
  releaseDate: '2030-01-01',
  termsAccepted: true,
};

describe('wizardSteps', () => {
  it('has five steps for a track and skips Video Style for a finished video', () => {
    expect(wizardSteps('track')).toEqual(['media', 'details', 'style', 'plan', 'review']);
    expect(wizardSteps('video')).toEqual(['media', 'details', 'plan', 'review']);
  });
});

describe('canLeaveStep', () => {
  it('needs the uploaded file of the chosen type, or its link, to leave step 1', () => {
    expect(canLeaveStep('media', blank)).toBe(false);
    expect(canLeaveStep('media', { ...blank, musicFileUrl: '/objects/uploads/m1' })).toBe(true);
    expect(canLeaveStep('media', { ...blank, submissionMethod: 'link', musicUrl: '   ' })).toBe(false);
    expect(canLeaveStep('media', { ...blank, submissionMethod: 'link', musicUrl: 'https://example.com/t' })).toBe(true);
    // A music file is not a finished video.
    expect(canLeaveStep('media', { ...blank, submissionType: 'video', musicFileUrl: '/objects/uploads/m1' })).toBe(false);
    expect(canLeaveStep('media', { ...blank, submissionType: 'video', videoFileUrl: '/objects/uploads/v1' })).toBe(true);
    expect(canLeaveStep('media', { ...blank, submissionType: 'video', submissionMethod: 'link', videoUrl: 'https://vimeo.com/1' })).toBe(true);
  });

  it('needs a link that is one, http or https, to leave step 1 with a link (issue 23)', () => {
    expect(canLeaveStep('media', { ...blank, submissionMethod: 'link', musicUrl: 'not a url' })).toBe(false);
    expect(canLeaveStep('media', { ...blank, submissionMethod: 'link', musicUrl: 'soundcloud.com/nyx/thing' })).toBe(false);
    expect(canLeaveStep('media', { ...blank, submissionMethod: 'link', musicUrl: 'ftp://example.com/t.mp3' })).toBe(false);
    expect(canLeaveStep('media', { ...blank, submissionMethod: 'link', musicUrl: withLinkScheme('soundcloud.com/nyx/thing') })).toBe(true);
  });

  it('completes what people paste as a link with https://, and leaves anything else as typed', () => {
    expect(withLinkScheme(' soundcloud.com/nyx/thing ')).toBe('https://soundcloud.com/nyx/thing');
    expect(withLinkScheme('www.youtube.com/watch?v=dQw4w9WgXcQ')).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(withLinkScheme('http://example.com/t')).toBe('http://example.com/t');
    expect(withLinkScheme('not a url')).toBe('not a url');
    expect(withLinkScheme('nyx')).toBe('nyx');
    expect(withLinkScheme('')).toBe('');
  });

  it('needs an artist name and a song title, not blank, to leave the details', () => {
    expect(canLeaveStep('details', { ...blank, songTitle: 'Night Drive' })).toBe(true);
    expect(canLeaveStep('details', { ...blank, songTitle: '  ' })).toBe(false);
    expect(canLeaveStep('details', { ...blank, artistName: ' ', songTitle: 'Night Drive' })).toBe(false);
  });

  it('needs the lyrics when the song has them, and a date when "Specific date" is chosen (issue 36)', () => {
    const details = { ...blank, songTitle: 'Night Drive' };
    expect(canLeaveStep('details', { ...details, hasLyrics: true, lyrics: ' \n ' })).toBe(false);
    expect(canLeaveStep('details', { ...details, hasLyrics: true, lyrics: 'City lights' })).toBe(true);
    expect(canLeaveStep('details', { ...details, hasLyrics: false, lyrics: '' })).toBe(true);
    const media = { ...blank, musicFileUrl: '/objects/uploads/m1', releaseStatus: 'unreleased' as const };
    expect(canLeaveStep('media', { ...media, releaseDateOption: 'specific', releaseDate: '' })).toBe(false);
    expect(canLeaveStep('media', { ...media, releaseDateOption: 'specific', releaseDate: '2030-01-01' })).toBe(true);
    expect(canLeaveStep('media', { ...media, releaseDateOption: 'asap', releaseDate: '' })).toBe(true);
    // A released track's date stays optional.
    expect(canLeaveStep('media', { ...media, releaseStatus: 'released', releaseDateOption: 'specific', releaseDate: '' })).toBe(true);
  });

  it('lets the other steps go as they are', () => {
    for (const step of ['style', 'plan', 'review'] as const) expect(canLeaveStep(step, blank)).toBe(true);
  });
});

describe('toSubmissionInput', () => {
  it('sends one media source, and lyrics, a date and the custom style only where chosen', () => {
    const input = toSubmissionInput(track);
    expect(input).toMatchObject({
      musicFileUrl: '/objects/uploads/m1',
      musicUrl: null,
      videoUrl: null,
      videoFileUrl: null,
      lyrics: null,
      lyricsLanguage: null,
      releaseDate: null,
      videoStyle: 'custom',
      styleReferenceUrls: ['/objects/uploads/s1'],
      creativeDirection: 'Neon',
      termsAccepted: true,
      publishOnYoutube: true,
    });
  });

  it('sends a trimmed link when the link was chosen, and a date when a specific one was', () => {
    const input = toSubmissionInput({ ...track, submissionMethod: 'link', musicUrl: ' https://example.com/t ', releaseDateOption: 'specific', hasLyrics: true });
    expect(input).toMatchObject({ musicUrl: 'https://example.com/t', musicFileUrl: null, releaseDate: '2030-01-01', lyrics: 'left over', lyricsLanguage: 'English' });
  });

  it('sends a finished video without any video style', () => {
    const input = toSubmissionInput({ ...track, submissionType: 'video', videoFileUrl: '/objects/uploads/v1' });
    expect(input).toMatchObject({ videoFileUrl: '/objects/uploads/v1', musicFileUrl: null, styleReferenceUrls: [], characterImageUrls: [], creativeDirection: null });
    expect(input.videoStyle).toBeUndefined();
  });

  it('sends no references for a non-custom style', () => {
    expect(toSubmissionInput({ ...track, videoStyle: 'non-custom' })).toMatchObject({ styleReferenceUrls: [], characterImageUrls: [], creativeDirection: null });
  });
});

describe('toDraftInput', () => {
  it('keeps a track’s style choices while non-custom is picked, with the terms box and the step', () => {
    const input = toDraftInput({ ...track, videoStyle: 'non-custom', termsAccepted: false }, 3);
    expect(input).toMatchObject({ videoStyle: 'non-custom', styleReferenceUrls: ['/objects/uploads/s1'], creativeDirection: 'Neon', termsAccepted: false, draftStep: 3 });
  });

  it('keeps no style for a finished video', () => {
    expect(toDraftInput({ ...track, submissionType: 'video' }, 2)).toMatchObject({ styleReferenceUrls: [], characterImageUrls: [], creativeDirection: null });
  });
});

describe('wizardValuesOf', () => {
  it('brings a saved draft back into the wizard, its empty fields as empty text', () => {
    const values = { ...blank, songTitle: 'Night Drive', genre: 'Pop', submissionMethod: 'link' as const, musicUrl: 'https://example.com/t' };
    const draft = { ...toDraftInput(values, 2), id: 'd1', status: 'draft' } as unknown as OwnSubmission;
    expect(wizardValuesOf(draft)).toEqual(values);
  });
});

describe('the owners and Content ID (CONTRACT §22)', () => {
  const co = [
    { name: 'Nora Vex', email: '', role: 'artist' as const, share: 50 },
    { name: 'Sam Rivera', email: 'sam@example.com', role: 'writer' as const, share: 30 },
    { name: '', email: '', role: 'producer' as const, share: 20 },
  ];

  it('prefills the artist alone at 100%, and leaves the details only with shares adding up to 100 and a valid ISRC', () => {
    expect(blank.owners).toEqual([{ name: 'Nora Vex', email: '', role: 'artist', share: 100 }]);
    expect(canLeaveStep('details', track)).toBe(true);
    expect(canLeaveStep('details', { ...track, owners: co })).toBe(false);
    const named = co.map((o, i) => (i === 2 ? { ...o, name: 'Jo Kim' } : o));
    expect(canLeaveStep('details', { ...track, owners: named })).toBe(true);
    expect(canLeaveStep('details', { ...track, owners: named.slice(0, 2) })).toBe(false);
    expect(canLeaveStep('details', { ...track, isrc: 'US-RC1-76-0783' })).toBe(false);
    expect(canLeaveStep('details', { ...track, isrc: 'us-rc1-76-07839' })).toBe(true);
  });

  it('sends the whole sheet with a submission; a draft keeps the rows complete so far and no half-typed ISRC', () => {
    const values = { ...track, owners: co, contentId: 'yes' as const, distributor: ' DistroKid ', isrc: 'US-RC1' };
    expect(toSubmissionInput(values)).toMatchObject({ owners: co.map((o) => expect.objectContaining({ name: o.name })), contentId: 'yes', distributor: 'DistroKid' });
    const draft = toDraftInput(values, 2);
    expect(draft.owners).toEqual([
      { name: 'Nora Vex', email: null, role: 'artist', share: 50 },
      { name: 'Sam Rivera', email: 'sam@example.com', role: 'writer', share: 30 },
    ]);
    expect(draft.isrc).toBeNull();
    expect(toSubmissionInput({ ...values, contentId: 'no' }).distributor).toBeNull();
  });
});

describe('stepBlocker: the reason next to a greyed Next', () => {
  const blank = defaultWizardValues('Harbor Lights');
  it('names what is missing, first things first, and nothing once the step is complete', () => {
    expect(stepBlocker('media', blank)).toBe('Upload your music file');
    expect(stepBlocker('media', { ...blank, submissionMethod: 'link', musicUrl: 'nope' })).toBe('Add a link to your music (starting with https://)');
    expect(stepBlocker('media', { ...blank, musicFileUrl: '/objects/uploads/m1', releaseDateOption: 'specific', releaseDate: '' })).toBe('Choose the release date');
    expect(stepBlocker('details', blank)).toBe('Give the song title');
    const titled = { ...blank, songTitle: 'Night Drive' };
    expect(stepBlocker('details', { ...titled, owners: [{ name: 'Harbor Lights', email: '', role: 'artist', share: 60 }] })).toBe('Owners: The owners’ shares must add up to 100%');
    expect(stepBlocker('details', { ...titled, isrc: 'bad' })).toMatch(/ISRC/);
    expect(stepBlocker('details', titled)).toBeNull();
  });
});

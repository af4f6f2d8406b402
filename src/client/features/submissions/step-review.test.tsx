import { renderToStaticMarkup } from 'react-dom/server';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { StepReview } from './step-review';
import { defaultWizardValues, toSubmissionInput, type WizardValues } from './wizard-form';

/** The Review step as the artist reads it, as text (issue 23, items 9 and 15). */
function reviewText(values: Partial<WizardValues>): string {
  function Review() {
    const form = useForm<WizardValues>({ defaultValues: { ...defaultWizardValues('Harbor Lights'), songTitle: 'Night Drive', ...values } });
    return <StepReview form={form} fileName="night-drive.wav" artworkPreviewUrl={undefined} />;
  }
  return renderToStaticMarkup(<Review />)
    .replace(/<\/(dt|dd|p|div)>/g, '$&\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&#x27;/g, "'");
}

describe('the Review step', () => {
  it('shows the description and the creative direction the artist wrote', () => {
    const text = reviewText({ description: 'A synth ballad about leaving town.', videoStyle: 'custom', creativeDirection: 'Neon rain, one long take.' });
    expect(text).toContain('Description\nA synth ballad about leaving town.');
    expect(text).toContain('Creative direction\nNeon rain, one long take.');
  });

  it('counts images in the singular and the plural', () => {
    const one = reviewText({ videoStyle: 'custom', styleReferenceUrls: ['/objects/uploads/s1'], characterImageUrls: ['/objects/uploads/c1'] });
    expect(one).toContain('Custom · 1 style image, 1 character image');
    const many = reviewText({ videoStyle: 'custom', styleReferenceUrls: [], characterImageUrls: ['/objects/uploads/c1', '/objects/uploads/c2'] });
    expect(many).toContain('Custom · 0 style images, 2 character images');
  });

  it('names a free plan once, and a paid one with its price', () => {
    expect(reviewText({ pricingTier: 'free' })).toContain('Plan\nFree\n');
    expect(reviewText({ pricingTier: 'basic' })).toContain('Plan\nBasic · $49.00\n');
  });

  it('reads a released track as released, never "Undecided"', () => {
    const released = reviewText({ releaseStatus: 'released', releaseDateOption: 'undecided' });
    expect(released).toContain('Release\nReleased\n');
    expect(released).not.toContain('Undecided');
    expect(reviewText({ releaseStatus: 'released', releaseDateOption: 'specific', releaseDate: '2025-03-01' })).toContain('Release\nReleased on 2025-03-01\n');
    expect(reviewText({ releaseStatus: 'unreleased', releaseDateOption: 'asap' })).toContain('Release\nUnreleased · As soon as possible\n');
  });
});

describe('the Review step’s rights (issue 43 item 4)', () => {
  it('shows the split sheet with roles, shares and how each owner signs, and the Content ID, distributor, ISRC and AI answers', () => {
    const text = reviewText({
      owners: [
        { name: 'Harbor Lights', email: '', role: 'artist', share: 60 },
        { name: 'Jonas Berg', email: 'jonas@example.com', role: 'writer', share: 30 },
        { name: 'Old Bandmate', email: '', role: 'producer', share: 10 },
      ],
      contentId: 'yes',
      distributor: 'DistroKid',
      isrc: 'usrc17607839',
      aiUsage: true,
    });
    expect(text).toContain('Harbor Lights · Artist · 60%');
    expect(text).toContain('Jonas Berg · Writer · 30%');
    expect(text).toContain('Signs from a link sent to jonas@example.com');
    expect(text).toContain('Old Bandmate · Producer · 10%');
    expect(text).toContain('No email: you sign for them');
    expect(text).toContain('With a distributor or in Content ID\nYes\n');
    expect(text).toContain('Distributor\nDistroKid\n');
    expect(text).toContain('ISRC\nUS-RC1-76-07839\n');
    expect(text).toContain('AI used in making the music\nYes');
    // The rights come before the terms the artist accepts.
    expect(text.indexOf('Rights and split sheet')).toBeLessThan(text.indexOf('I accept the'));
  });
});

describe('the release date sent', () => {
  const base = { ...defaultWizardValues('Harbor Lights'), songTitle: 'Night Drive' };

  it('drops "Undecided" and "As soon as possible" for a released track, keeping its date if given', () => {
    expect(toSubmissionInput({ ...base, releaseStatus: 'released', releaseDateOption: 'asap', releaseDate: '' })).toMatchObject({ releaseDateOption: null, releaseDate: null });
    expect(toSubmissionInput({ ...base, releaseStatus: 'released', releaseDateOption: 'undecided', releaseDate: '2025-03-01' })).toMatchObject({ releaseDateOption: 'specific', releaseDate: '2025-03-01' });
    expect(toSubmissionInput({ ...base, releaseStatus: 'unreleased', releaseDateOption: 'asap', releaseDate: '2030-01-01' })).toMatchObject({ releaseDateOption: 'asap', releaseDate: null });
  });
});

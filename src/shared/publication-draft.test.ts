import { describe, expect, it } from 'vitest';
import { tagsLength } from './production';
import { draftPublication } from './publication-draft';

describe('the publication draft (CONTRACT §16)', () => {
  it('titles the video {artist} - {song} and lists the links by SPEC §2 rules', () => {
    const draft = draftPublication(
      { artistName: 'Nyx <3', songTitle: 'Night Drive', genre: 'Synthwave', mood: 'Dreamy' },
      {
        instagramHandle: '@nyx',
        tiktokHandle: '@@nyx',
        twitterHandle: 'nyx_x',
        spotifyHandle: 'abc123',
        bandcampHandle: 'Nyx Music',
        applemusicHandle: 'Nyx on Apple',
        otherPlatforms: 'Beatport',
      },
    );
    expect(draft.title).toBe('Nyx 3 - Night Drive');
    expect(draft.description.split('\n')).toEqual([
      'Night Drive by Nyx 3',
      '',
      'Follow Nyx 3:',
      'Instagram: https://www.instagram.com/nyx',
      'TikTok: https://www.tiktok.com/@nyx',
      'X (Twitter): https://x.com/nyx_x',
      'Spotify: https://open.spotify.com/artist/abc123',
      'Bandcamp: https://nyxmusic.bandcamp.com',
      'Apple Music: Nyx on Apple',
      'Other platforms: Beatport',
    ]);
    expect(draft.tags).toEqual(['Synthwave', 'Dreamy', 'Nyx 3']);
  });

  it('stays within YouTube’s limits: 100 characters, 5,000 bytes, 500 characters of tags, no < or >', () => {
    const long = 'é'.repeat(3000);
    const draft = draftPublication(
      { artistName: 'A'.repeat(80), songTitle: '<b>'.repeat(20), genre: 'g'.repeat(300), mood: 'm'.repeat(300) },
      { otherPlatforms: long, deezerHandle: '<script>', soundcloudHandle: 'x' },
    );
    expect(Array.from(draft.title).length).toBeLessThanOrEqual(100);
    expect(new TextEncoder().encode(draft.description).length).toBeLessThanOrEqual(5000);
    expect(draft.description).not.toMatch(/[<>]/);
    expect(draft.title).not.toMatch(/[<>]/);
    expect(tagsLength(draft.tags)).toBeLessThanOrEqual(500);
    expect(draft.tags).toEqual(['g'.repeat(300), 'A'.repeat(80)]); // the mood would pass 500
  });
});

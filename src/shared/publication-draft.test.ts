import { describe, expect, it } from 'vitest';
import { tagsLength, youtubePublishSchema } from './production';
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

  it('makes the title one line of plain text, whatever the artist typed (issue 32 finding 8)', () => {
    const draft = draftPublication({ artistName: 'Nyx\n\tCollective\u0007', songTitle: 'Night\r\nDrive\u2028(Live)', genre: 'Synth\nwave', mood: null }, {});
    expect(draft.title).toBe('Nyx Collective - Night Drive (Live)');
    expect(draft.description.split('\n')[0]).toBe('Night Drive (Live) by Nyx Collective');
    expect(draft.tags).toEqual(['Synth wave', 'Nyx Collective']);
  });
});

describe('what is sent to YouTube (POST …/youtube)', () => {
  const objectPath = '/objects/uploads/0123456789abcdef01234567';
  it('takes the title as one line and the description as plain text', () => {
    const parsed = youtubePublishSchema.parse({ objectPath, title: '  Nyx -\nNight\tDrive\u0000 ', description: 'Line one\r\nLine two\u0007\u2029Line\tthree' });
    expect(parsed.title).toBe('Nyx - Night Drive');
    expect(parsed.description).toBe('Line one\nLine two\nLine three');
  });
  it('refuses a title that is nothing but line breaks, and a path that is not a video upload, in words', () => {
    const blank = youtubePublishSchema.safeParse({ objectPath, title: '\n\r\t', description: '' });
    expect(blank.error?.issues[0]?.message).toBe('Give the video a title');
    const none = youtubePublishSchema.safeParse({ objectPath: '', title: 'T', description: '' });
    expect(none.error?.issues[0]?.message).toBe('Choose a video the team delivered for this submission, or the artist’s own video file');
  });
});

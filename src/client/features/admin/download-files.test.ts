import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicUser } from '@shared/auth';
import { downloadExtension } from '@shared/downloads';
import { downloadHref, planDownloads, startDownloads } from './download-files';
import { socialLinksOf } from '@shared/social-links';

const submission = {
  songTitle: 'Night Drive (Remix)',
  artistName: 'Nora Vex',
  musicFileUrl: '/objects/uploads/m1',
  videoFileUrl: '  ',
  artworkUrl: '/objects/uploads/a1',
  styleReferenceUrls: ['/objects/uploads/s1', '', '/objects/uploads/s2'],
  characterImageUrls: ['/objects/uploads/c1'],
};

describe('planDownloads', () => {
  it('gathers every stored file, skips blank URLs and names them from title, artist and kind', () => {
    expect(planDownloads(submission)).toEqual([
      { url: '/objects/uploads/m1', kind: 'music', baseName: 'night-drive-remix_nora-vex_music' },
      { url: '/objects/uploads/a1', kind: 'artwork', baseName: 'night-drive-remix_nora-vex_artwork' },
      { url: '/objects/uploads/s1', kind: 'style', baseName: 'night-drive-remix_nora-vex_style-1' },
      { url: '/objects/uploads/s2', kind: 'style', baseName: 'night-drive-remix_nora-vex_style-2' },
      { url: '/objects/uploads/c1', kind: 'character', baseName: 'night-drive-remix_nora-vex_character-1' },
    ]);
    expect(planDownloads({ ...submission, musicFileUrl: null, artworkUrl: '', styleReferenceUrls: [], characterImageUrls: [' '] })).toEqual([]);
  });
});

describe('downloadExtension', () => {
  it('keeps allowed extensions, reads the content type, and falls back to jpg', () => {
    expect(downloadExtension('/files/song.WAV')).toBe('wav');
    expect(downloadExtension('/objects/uploads/x', 'audio/mpeg')).toBe('mp3');
    expect(downloadExtension('/objects/uploads/x', 'image/png')).toBe('png');
    expect(downloadExtension('/objects/uploads/x', 'video/mp4')).toBe('mp4');
    expect(downloadExtension('/objects/uploads/x', 'video/quicktime')).toBe('mov');
    expect(downloadExtension('/objects/uploads/x', 'video/webm')).toBe('webm');
    expect(downloadExtension('/files/song.exe')).toBe('jpg');
    expect(downloadExtension('/objects/uploads/x', 'application/octet-stream')).toBe('jpg');
  });
});

describe('downloadHref', () => {
  it('asks the server to send a stored upload as an attachment under its planned name, and leaves links as they are', () => {
    const [music] = planDownloads({ ...submission, musicFileUrl: '/objects/uploads/3f2a9c1e-0000-4000-8000-000000000001' });
    expect(downloadHref(music!)).toBe('/objects/uploads/3f2a9c1e-0000-4000-8000-000000000001?download=night-drive-remix_nora-vex_music');
    expect(downloadHref({ url: 'https://example.com/track.mp3', kind: 'music', baseName: 'x_y_music' })).toBe('https://example.com/track.mp3');
  });
});

describe('startDownloads', () => {
  afterEach(() => vi.useRealTimers());
  it('starts the downloads 500 ms apart and reports how many began', () => {
    vi.useFakeTimers();
    const started: string[] = [];
    const n = startDownloads(planDownloads(submission), async (item) => {
      started.push(item.kind);
    });
    expect(n).toBe(5);
    vi.advanceTimersByTime(0);
    expect(started).toEqual(['music']);
    vi.advanceTimersByTime(499);
    expect(started).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(started).toHaveLength(2);
    vi.advanceTimersByTime(1500);
    expect(started).toHaveLength(5);
  });
});

describe('socialLinksOf', () => {
  it('builds links by SPEC rules and shows some platforms as text', () => {
    const user = {
      instagramHandle: '@nora.vex',
      tiktokHandle: 'noravex',
      twitterHandle: '@@nora',
      facebookHandle: 'https://facebook.com/noravexmusic',
      youtubeHandle: '@NoraVex',
      spotifyHandle: '4Z8W4fKeB5YxbusRsdQVPb',
      soundcloudHandle: 'nora-vex',
      bandcampHandle: 'noravex',
      applemusicHandle: 'Nora Vex',
      amazonmusicHandle: null,
      deezerHandle: '',
      otherPlatforms: 'Beatport',
    } as unknown as PublicUser;
    expect(socialLinksOf(user)).toEqual([
      { platform: 'Instagram', handle: '@nora.vex', href: 'https://www.instagram.com/nora.vex' },
      { platform: 'TikTok', handle: 'noravex', href: 'https://www.tiktok.com/@noravex' },
      { platform: 'X (Twitter)', handle: '@@nora', href: 'https://x.com/nora' },
      { platform: 'Facebook', handle: 'https://facebook.com/noravexmusic', href: 'https://facebook.com/noravexmusic' },
      { platform: 'YouTube', handle: '@NoraVex', href: 'https://www.youtube.com/@NoraVex' },
      { platform: 'Spotify', handle: '4Z8W4fKeB5YxbusRsdQVPb', href: 'https://open.spotify.com/artist/4Z8W4fKeB5YxbusRsdQVPb' },
      { platform: 'SoundCloud', handle: 'nora-vex', href: 'https://soundcloud.com/nora-vex' },
      { platform: 'Bandcamp', handle: 'noravex', href: 'https://noravex.bandcamp.com' },
      { platform: 'Apple Music', handle: 'Nora Vex' },
      { platform: 'Other platforms', handle: 'Beatport' },
    ]);
    expect(socialLinksOf(null)).toEqual([]);
  });
});

import type { PublicProfile } from './auth';

/**
 * SPEC §2's social link rules, in one place (CONTRACT §16): the desk shows an artist's links by
 * them, and the video description on the label's channel is written by them.
 */

export interface SocialLink {
  platform: string;
  handle: string;
  /** Absent for platforms shown as plain text (SPEC §2: Apple Music, Amazon Music, Deezer, other). */
  href?: string;
}

const isHttpUrl = (value: string) => /^https?:\/\/[^\s]+$/i.test(value);
const stripAt = (value: string) => value.replace(/^@+/, '');
const segment = (value: string) => encodeURIComponent(value);

/** A link that is already a full http(s) URL is used as it is; anything else is built from the handle. */
const linkTo = (build: (handle: string) => string) => (handle: string) => (isHttpUrl(handle) ? handle : build(handle));

type SocialField = Extract<keyof PublicProfile, `${string}Handle` | 'otherPlatforms'>;
type Platform = { field: SocialField; platform: string; href?: (handle: string) => string };

/** SPEC §2 "Social link rules". */
const PLATFORMS: Platform[] = [
  { field: 'instagramHandle', platform: 'Instagram', href: linkTo((h) => `https://www.instagram.com/${segment(stripAt(h))}`) },
  { field: 'tiktokHandle', platform: 'TikTok', href: linkTo((h) => `https://www.tiktok.com/@${segment(stripAt(h))}`) },
  { field: 'twitterHandle', platform: 'X (Twitter)', href: linkTo((h) => `https://x.com/${segment(stripAt(h))}`) },
  { field: 'facebookHandle', platform: 'Facebook', href: linkTo((h) => `https://www.facebook.com/${segment(stripAt(h))}`) },
  {
    field: 'youtubeHandle',
    platform: 'YouTube',
    href: linkTo((h) => (h.startsWith('@') ? `https://www.youtube.com/@${segment(stripAt(h))}` : `https://www.youtube.com/c/${segment(h)}`)),
  },
  { field: 'spotifyHandle', platform: 'Spotify', href: linkTo((h) => `https://open.spotify.com/artist/${segment(h)}`) },
  { field: 'soundcloudHandle', platform: 'SoundCloud', href: linkTo((h) => `https://soundcloud.com/${segment(stripAt(h))}`) },
  {
    field: 'bandcampHandle',
    platform: 'Bandcamp',
    href: linkTo((h) => {
      const sub = stripAt(h).toLowerCase().replace(/[^a-z0-9-]/g, '');
      return sub ? `https://${sub}.bandcamp.com` : '';
    }),
  },
  { field: 'applemusicHandle', platform: 'Apple Music' },
  { field: 'amazonmusicHandle', platform: 'Amazon Music' },
  { field: 'deezerHandle', platform: 'Deezer' },
  { field: 'otherPlatforms', platform: 'Other platforms' },
];

/** The user's filled-in social handles, in SPEC order, with links where SPEC gives them. */
export function socialLinksOf(user: Partial<Record<SocialField, string | null>> | null | undefined): SocialLink[] {
  if (!user) return [];
  return PLATFORMS.flatMap(({ field, platform, href }) => {
    const handle = user[field]?.trim();
    if (!handle) return [];
    const url = href?.(handle);
    return [url ? { platform, handle, href: url } : { platform, handle }];
  });
}

import {
  oneLine,
  tagsLength,
  withoutAngles,
  YOUTUBE_DESCRIPTION_MAX_BYTES,
  YOUTUBE_TAGS_MAX,
  YOUTUBE_TITLE_MAX,
  type PublicationDraft,
} from './production';
import { RIGHTS_TEXTS } from './rights';
import { socialLinksOf, type SocialLink } from './social-links';

/**
 * The title, description and tags of a video on the label's channel (CONTRACT §16), from the
 * submission and the submitting artist's profile at that moment: `{artistName} - {songTitle}`,
 * the song and artist (and the AI disclosure, CONTRACT §22) then the artist's links by SPEC §2's rules, and genre, mood and artist as
 * tags; all within YouTube's limits and without `<` or `>`.
 */
export function draftPublication(
  submission: { artistName: string; songTitle: string; genre: string | null; mood: string | null; aiUsage?: boolean },
  profile: Parameters<typeof socialLinksOf>[0],
): PublicationDraft {
  // One line of plain text each, as the title must be (issue 32 finding 8, issue 36).
  const artist = oneLine(withoutAngles(submission.artistName));
  const song = oneLine(withoutAngles(submission.songTitle));
  const title = Array.from(`${artist} - ${song}`).slice(0, YOUTUBE_TITLE_MAX).join('').trim();

  // CONTRACT §22: an AI-assisted track says so in one line under the song.
  const lines = [`${song} by ${artist}`, ...(submission.aiUsage ? [RIGHTS_TEXTS.aiDisclosureLine] : [])];
  const links = socialLinksOf(profile).map(linkLine);
  if (links.length > 0) lines.push('', `Follow ${artist}:`, ...links);
  const description = withinBytes(lines, YOUTUBE_DESCRIPTION_MAX_BYTES);

  const tags: string[] = [];
  for (const candidate of [submission.genre, submission.mood, submission.artistName]) {
    const tag = oneLine(withoutAngles(candidate ?? '').replaceAll(',', ' '));
    if (!tag || tags.some((t) => t.toLowerCase() === tag.toLowerCase())) continue;
    if (tagsLength([...tags, tag]) <= YOUTUBE_TAGS_MAX) tags.push(tag);
  }
  return { title, description, tags };
}

/** `Instagram: https://www.instagram.com/nyx`, or the handle as text where SPEC §2 gives no link. */
const linkLine = (link: SocialLink) => oneLine(withoutAngles(`${link.platform}: ${link.href ?? link.handle}`));

/** The lines that fit in `max` UTF-8 bytes, whole lines only (a half link is no link). */
function withinBytes(lines: string[], max: number): string {
  const encoder = new TextEncoder();
  let text = '';
  for (const line of lines) {
    const next = text === '' ? line : `${text}\n${line}`;
    if (encoder.encode(next).length > max) break;
    text = next;
  }
  return text.trim();
}

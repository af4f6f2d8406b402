import { fileTypeFromBuffer } from 'file-type';
import { DELIVERABLE_TYPES } from '@shared/production';
import { ATTACHMENT_TEXTS, ATTACHMENT_TYPES } from '@shared/messages';
import { FILE_FORMATS, FILE_LIMITS, MEDIA_TYPES, formatBytes } from '@shared/submissions';

export type FileKind = 'music' | 'image' | 'video' | 'deliverable' | 'attachment';

interface FileRule {
  maxBytes: number;
  /** Extension as file-type detects it → the Content-Type we store and serve. */
  types: Record<string, string>;
  tooLarge: string;
  wrongType: string;
}

/**
 * What each upload route accepts (SPEC §5: music MP3/WAV/OGG/MP4, images JPG/PNG/WEBP;
 * CONTRACT §12: finished videos MP4/MOV/WebM), judged from the bytes, never the name. OGG covers its audio flavours (Vorbis, Opus, .oga) and
 * Ogg video; MP4 covers MPEG-4 audio (.m4a), served as audio/mp4 so every browser plays it.
 */
export const FILE_RULES: Record<FileKind, FileRule> = {
  music: {
    maxBytes: FILE_LIMITS.musicBytes,
    types: { ...MEDIA_TYPES.audio, ogv: 'video/ogg', mp4: 'video/mp4' },
    tooLarge: `Music files must be at most ${formatBytes(FILE_LIMITS.musicBytes)}`,
    wrongType: `Music files must be ${FILE_FORMATS.music}`,
  },
  video: {
    maxBytes: FILE_LIMITS.videoBytes,
    types: MEDIA_TYPES.video,
    tooLarge: `Videos must be at most ${formatBytes(FILE_LIMITS.videoBytes)}`,
    wrongType: `Videos must be ${FILE_FORMATS.video}`,
  },
  // What the team delivers after approval (CONTRACT §13): images, a ZIP of them, audio and video.
  deliverable: {
    maxBytes: FILE_LIMITS.videoBytes,
    types: DELIVERABLE_TYPES,
    tooLarge: `Deliverables must be at most ${formatBytes(FILE_LIMITS.videoBytes)}`,
    wrongType: 'Deliverables must be images (JPG, PNG, WEBP), a ZIP, audio (MP3, WAV, OGG, M4A) or video (MP4, MOV, WebM)',
  },
  // A message's file (CONTRACT §18).
  attachment: {
    maxBytes: FILE_LIMITS.attachmentBytes,
    types: ATTACHMENT_TYPES,
    ...ATTACHMENT_TEXTS,
  },
  image: {
    maxBytes: FILE_LIMITS.imageBytes,
    types: MEDIA_TYPES.image,
    tooLarge: `Images must be at most ${formatBytes(FILE_LIMITS.imageBytes)}`,
    wrongType: `Images must be ${FILE_FORMATS.image}`,
  },
};

export const isContentTypeOf = (kind: FileKind, contentType: string | null) =>
  contentType !== null && Object.values(FILE_RULES[kind].types).includes(contentType);

/** Enough of a file's start to recognise any of the accepted formats. */
const SNIFF_BYTES = 64 * 1024;

/**
 * The Content-Type of an accepted format, sniffed from the bytes, or null. Reads at most two
 * small ranges: an MP3 often starts with an ID3 tag (cover art can make it megabytes long), so
 * the audio frames after the tag are what is checked.
 */
export async function sniffContentType(
  kind: FileKind,
  size: number,
  readRange: (start: number, end: number) => Promise<Buffer>,
): Promise<string | null> {
  if (size === 0) return null;
  const head = await readRange(0, Math.min(size, SNIFF_BYTES) - 1);
  let type = await fileTypeFromBuffer(head);
  if ((kind === 'music' || kind === 'deliverable' || kind === 'attachment') && head.length >= 10 && head.toString('latin1', 0, 3) === 'ID3') {
    const audioStart = 10 + id3TagLength(head) + (head[5]! & 0x10 ? 10 : 0);
    if (audioStart >= size) return null;
    const audio = await readRange(audioStart, Math.min(size, audioStart + SNIFF_BYTES) - 1);
    const inner = await fileTypeFromBuffer(audio);
    type = inner?.ext === 'mp3' ? inner : undefined;
  }
  return type ? (FILE_RULES[kind].types[type.ext] ?? null) : null;
}

/** ID3v2 tag size: four "synchsafe" bytes of 7 bits each. */
function id3TagLength(header: Buffer): number {
  return ((header[6]! & 0x7f) << 21) | ((header[7]! & 0x7f) << 14) | ((header[8]! & 0x7f) << 7) | (header[9]! & 0x7f);
}

import { FILE_FORMATS, FILE_LIMITS } from '@shared/submissions';
import { apiRequest } from '@client/lib/api';

export type UploadKind = 'music' | 'artwork' | 'style' | 'character' | 'video';

const IMAGE_TYPES = ['.jpg', '.jpeg', '.png', '.webp', 'image/jpeg', 'image/png', 'image/webp'];
const VIDEO_TYPES = ['.mp4', '.mov', '.webm', 'video/mp4', 'video/quicktime', 'video/webm'];
const MUSIC_TYPES = ['.mp3', '.wav', '.ogg', '.mp4', 'audio/mpeg', 'audio/mp3', 'audio/wav', 'audio/x-wav', 'audio/wave', 'audio/ogg', 'video/mp4', 'audio/mp4'];

interface UploadKindConfig {
  /**
   * How the bytes travel: `direct` PUTs them whole to a single-use upload URL (POST
   * /api/objects/upload); `resumable` uses tus (RESUMABLE_UPLOADS_PATH), so a dropped
   * connection, or a reload that adds the same file again, continues where it stopped.
   */
  transport: 'direct' | 'resumable';
  maxFiles: number;
  maxBytes: number;
  /** What the client checks for a fast message; the server checks the bytes and is the authority. */
  allowedTypes: string[];
  /** What the file chooser offers (SPEC §5: the music chooser accepts image, audio and video). */
  accept: string;
  /** The allowed formats in words, for the fast client-side message. */
  typeLabel: string;
  /** Turns uploaded URLs into object paths (SPEC §7). */
  normalize: (uploadURL: string, file: { name: string; size: number }) => Promise<string>;
}

const NORMALIZE_FAILED = 'Server failed to normalize file path properly';

function single(res: { objectPath?: unknown }): string {
  if (typeof res?.objectPath !== 'string' || !res.objectPath) throw new Error(NORMALIZE_FAILED);
  return res.objectPath;
}

function firstOfList(res: { objectPaths?: unknown }): string {
  const first = Array.isArray(res?.objectPaths) ? res.objectPaths[0] : undefined;
  if (typeof first !== 'string' || !first) throw new Error(NORMALIZE_FAILED);
  return first;
}

/** What every image kind shares: one size limit and the three formats. */
const IMAGE_KIND = {
  transport: 'direct',
  maxBytes: FILE_LIMITS.imageBytes,
  allowedTypes: IMAGE_TYPES,
  accept: 'image/jpeg,image/png,image/webp',
  typeLabel: FILE_FORMATS.image,
} as const satisfies Partial<UploadKindConfig>;

export const UPLOAD_KINDS: Record<UploadKind, UploadKindConfig> = {
  music: {
    // Resumable like the video (issue 33): a WAV of tens of megabytes on a phone's connection
    // must continue from the last byte after a drop, not start again.
    transport: 'resumable',
    maxFiles: 1,
    maxBytes: FILE_LIMITS.musicBytes,
    allowedTypes: MUSIC_TYPES,
    accept: 'image/*,audio/*,video/*',
    typeLabel: FILE_FORMATS.music,
    normalize: async (url, file) =>
      single(await apiRequest('PUT', '/api/music-files', { musicFileURL: url, fileName: file.name, fileSize: file.size })),
  },
  artwork: {
    ...IMAGE_KIND,
    maxFiles: 1,
    normalize: async (url, file) => single(await apiRequest('PUT', '/api/artwork-files', { artworkFileURL: url, fileName: file.name })),
  },
  style: {
    ...IMAGE_KIND,
    maxFiles: FILE_LIMITS.maxStyleImages,
    normalize: async (url, file) => firstOfList(await apiRequest('PUT', '/api/reference-files', { referenceFileURLs: [url], fileNames: [file.name] })),
  },
  character: {
    ...IMAGE_KIND,
    maxFiles: FILE_LIMITS.maxCharacterImages,
    normalize: async (url, file) => firstOfList(await apiRequest('PUT', '/api/character-files', { characterFileURLs: [url], fileNames: [file.name] })),
  },
  video: {
    transport: 'resumable',
    maxFiles: 1,
    maxBytes: FILE_LIMITS.videoBytes,
    allowedTypes: VIDEO_TYPES,
    accept: 'video/mp4,video/quicktime,video/webm,.mp4,.mov,.webm',
    typeLabel: FILE_FORMATS.video,
    normalize: async (url, file) =>
      single(await apiRequest('PUT', '/api/video-files', { videoFileURL: url, fileName: file.name, fileSize: file.size })),
  },
};

/** True when the file's extension or MIME type is one of `allowed` (entries start with '.' or are MIME types). */
export function isAllowedType(file: { name: string; type: string }, allowed: string[]): boolean {
  const name = file.name.toLowerCase();
  return allowed.some((entry) => (entry.startsWith('.') ? name.endsWith(entry) : file.type === entry));
}

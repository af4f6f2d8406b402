import { z } from 'zod';

/**
 * Saving a stored file under a readable name (SPEC §7): the client plans the name without its
 * extension, `GET /objects/uploads/{id}?download={name}` answers with
 * `Content-Disposition: attachment` and the name plus the extension of the file's checked type.
 * The browser then streams the bytes to disk itself, however large: nothing is read into memory.
 */

/**
 * SPEC §7: only these extensions are given to downloaded files; anything else becomes jpg.
 * MOV and WebM join them because CONTRACT §12 accepts finished videos in those formats.
 */
const DOWNLOAD_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'mp3', 'wav', 'flac', 'mp4', 'mov', 'webm'] as const;
const DEFAULT_EXTENSION = 'jpg';

const CONTENT_TYPE_EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
  'audio/mp4': 'mp4',
};

/** The extension from the URL's path, else from the served Content-Type, when allowed; else jpg. */
export function downloadExtension(url: string, contentType?: string | null): string {
  const allowed = (ext: string | undefined) => !!ext && (DOWNLOAD_EXTENSIONS as readonly string[]).includes(ext);
  const path = url.split(/[?#]/)[0] ?? '';
  const fromPath = /\.([a-z0-9]{2,5})$/i.exec(path)?.[1]?.toLowerCase();
  if (allowed(fromPath)) return fromPath!;
  const fromType = CONTENT_TYPE_EXTENSIONS[(contentType ?? '').split(';')[0]!.trim().toLowerCase()];
  if (allowed(fromType)) return fromType!;
  return DEFAULT_EXTENSION;
}

/** `?download=` of GET /objects/uploads/{id}: a planned name such as "night-drive_nora-vex_style-2". */
export const downloadQuerySchema = z.object({
  download: z
    .string({ message: 'download must be a file name' })
    .regex(/^[a-z0-9][a-z0-9_-]{0,149}$/, 'download must be a file name of lower-case letters, digits, - and _, at most 150 characters')
    .optional(),
});

/**
 * A stored file's name as people see it (the wizard's list, "Download my data"): the name it was
 * uploaded under, with the extension of its checked type added when that name has none; a file
 * stored without a name is `{fallbackStem}.{extension}`.
 */
export function fileNameWithExtension(fileName: string | null, contentType: string | null, fallbackStem = 'file'): string {
  const name = fileName?.trim() || fallbackStem;
  return /\.[a-z0-9]{2,5}$/i.test(name) ? name : `${name}.${downloadExtension('', contentType)}`;
}

import type { AdminSubmission } from '@shared/submission-schemas';

/**
 * SPEC §7: only these extensions are given to downloaded files; anything else becomes jpg.
 * MOV and WebM join them because CONTRACT §12 accepts finished videos in those formats.
 */
export const DOWNLOAD_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'mp3', 'wav', 'flac', 'mp4', 'mov', 'webm'] as const;
const DEFAULT_EXTENSION = 'jpg';
/** SPEC §7: downloads start 500 ms apart, so the browser does not drop any of them. */
export const DOWNLOAD_INTERVAL_MS = 500;

export type DownloadKind = 'music' | 'video' | 'artwork' | 'style' | 'character';

export interface PlannedDownload {
  url: string;
  kind: DownloadKind;
  /** The file name without extension, e.g. "night-drive_nora-vex_style-2". */
  baseName: string;
}

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

function slug(text: string | null | undefined, fallback: string): string {
  const s = (text ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return s || fallback;
}

/** Every stored file of the submission (music, video, artwork, style and character images); blank URLs skipped. */
export function planDownloads(s: Pick<AdminSubmission, 'songTitle' | 'artistName' | 'musicFileUrl' | 'videoFileUrl' | 'artworkUrl' | 'styleReferenceUrls' | 'characterImageUrls'>): PlannedDownload[] {
  const prefix = `${slug(s.songTitle, 'untitled')}_${slug(s.artistName, 'artist')}`;
  const present = (url: string | null | undefined): url is string => typeof url === 'string' && url.trim() !== '';
  const plan: PlannedDownload[] = [];
  if (present(s.musicFileUrl)) plan.push({ url: s.musicFileUrl.trim(), kind: 'music', baseName: `${prefix}_music` });
  if (present(s.videoFileUrl)) plan.push({ url: s.videoFileUrl.trim(), kind: 'video', baseName: `${prefix}_video` });
  if (present(s.artworkUrl)) plan.push({ url: s.artworkUrl.trim(), kind: 'artwork', baseName: `${prefix}_artwork` });
  s.styleReferenceUrls.filter(present).forEach((url, i) => plan.push({ url: url.trim(), kind: 'style', baseName: `${prefix}_style-${i + 1}` }));
  s.characterImageUrls.filter(present).forEach((url, i) => plan.push({ url: url.trim(), kind: 'character', baseName: `${prefix}_character-${i + 1}` }));
  return plan;
}

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

function saveAs(href: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * Downloads one file through the access-checked /objects route (same origin: the session cookie
 * goes along) and saves it under its planned name. If the bytes cannot be fetched (a store that
 * redirects elsewhere without CORS), the browser is pointed at the URL itself.
 */
export async function downloadOne(item: PlannedDownload): Promise<void> {
  try {
    const res = await fetch(item.url, { credentials: 'include' });
    if (!res.ok) throw new Error(String(res.status));
    const blob = await res.blob();
    const objectUrl = URL.createObjectURL(blob);
    saveAs(objectUrl, `${item.baseName}.${downloadExtension(item.url, res.headers.get('content-type') ?? blob.type)}`);
    setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
  } catch {
    saveAs(item.url, `${item.baseName}.${downloadExtension(item.url)}`);
  }
}

/** Starts every planned download, 500 ms apart; resolves with how many began. */
export function startDownloads(plan: PlannedDownload[], download = downloadOne): number {
  plan.forEach((item, i) => {
    setTimeout(() => void download(item), i * DOWNLOAD_INTERVAL_MS);
  });
  return plan.length;
}

import type { AdminSubmission } from '@shared/submission-schemas';
import { uploadIdFromObjectPath } from '@shared/submissions';

/** SPEC §7: downloads start 500 ms apart, so the browser does not drop any of them. */
const DOWNLOAD_INTERVAL_MS = 500;

type DownloadKind = 'music' | 'video' | 'artwork' | 'style' | 'character';

export interface PlannedDownload {
  url: string;
  kind: DownloadKind;
  /** The file name without extension, e.g. "night-drive_nora-vex_style-2". */
  baseName: string;
}

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

/** A stored upload of this site, served (access-checked) at /objects/uploads/{id}. */
const isStoredUpload = (url: string) => uploadIdFromObjectPath(url) !== null;

/**
 * Where the browser goes to save one planned file. A stored upload is asked for with
 * `?download={name}`: the server answers `Content-Disposition: attachment` with the name and the
 * extension of the file's checked type (also through an S3 redirect, where a link's `download`
 * attribute no longer counts), so the browser streams even a 2 GiB video straight to disk.
 */
export function downloadHref(item: PlannedDownload): string {
  return isStoredUpload(item.url) ? `${item.url}?download=${encodeURIComponent(item.baseName)}` : item.url;
}

/**
 * Saves one file through a link the browser follows itself: never fetched into page memory. A
 * file elsewhere (a link the artist gave) cannot be named across origins, so it opens in a new
 * tab rather than taking the desk's page away.
 */
export function downloadOne(item: PlannedDownload): void {
  const a = document.createElement('a');
  a.href = downloadHref(item);
  a.rel = 'noopener';
  a.style.display = 'none';
  // Same origin: an empty `download` saves under the name the server sends, extension included.
  if (isStoredUpload(item.url)) a.download = '';
  else a.target = '_blank';
  document.body.append(a);
  a.click();
  a.remove();
}

/** Starts every planned download, 500 ms apart; answers how many began. */
export function startDownloads(plan: PlannedDownload[], download: (item: PlannedDownload) => void = downloadOne): number {
  plan.forEach((item, i) => {
    setTimeout(() => download(item), i * DOWNLOAD_INTERVAL_MS);
  });
  return plan.length;
}

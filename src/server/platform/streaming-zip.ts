import { PassThrough, type Readable } from 'node:stream';
import { ZipArchive } from 'archiver';

/**
 * A ZIP answered as it is written (archiver): entries are appended one after the other, each
 * stream read once, so memory stays constant whatever the sizes (ZIP64 past 4 GiB). `run` does
 * the appending and finalises; an error in it, or in the archive, ends the response stream with
 * that error (and is passed to `onError`) rather than answering a ZIP that silently lacks a file.
 */
export function streamingZip(onError: (error: Error) => void) {
  const archive = new ZipArchive({ zlib: { level: 6 }, forceZip64: false });
  const out = new PassThrough();
  archive.on('error', (error: Error) => {
    onError(error);
    out.destroy(error);
  });
  archive.on('warning', (error: Error) => onError(error));
  archive.pipe(out);
  const append = (body: Readable | Buffer | string, name: string, store: boolean) =>
    new Promise<void>((resolve, reject) => {
      archive.once('entry', () => resolve());
      if (typeof body === 'object' && 'once' in body && !Buffer.isBuffer(body)) body.once('error', reject);
      archive.append(body, { name, store });
    });
  const run = (work: () => Promise<void>) => {
    void (async () => {
      try {
        await work();
        await archive.finalize();
      } catch (error) {
        onError(error as Error);
        archive.abort();
        out.destroy(error as Error);
      }
    })();
  };
  return { stream: out as Readable, append, run };
}

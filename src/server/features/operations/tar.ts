import { once } from 'node:events';
import type { FileHandle } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { extract, pack, type Pack } from 'tar-stream';

/**
 * The backup archive is a plain POSIX tar (ustar), so `tar -tf` lists it and `tar -xf` unpacks it
 * by hand in an emergency; written and read with `tar-stream`. Only what a backup needs: regular
 * files with ASCII names under 100 bytes (one plain header each, so an entry's bytes sit right
 * after its header), sizes past 8 GiB in the GNU base-256 form. Written as a stream (a backup is
 * never held in memory); read from a file by offset (restore reads the archive twice: verify,
 * then fill).
 */
const BLOCK = 512;

export class TarWriter {
  private readonly pack: Pack = pack();
  private readonly done: Promise<void>;

  constructor(out: Writable) {
    this.done = new Promise((resolve, reject) => {
      this.pack.pipe(out, (error?: Error | null) => (error ? reject(error) : resolve()));
    });
    // Failures surface through `done` (and the entry being written): never as an unhandled rejection.
    this.done.catch(() => {});
  }

  /** Adds a file whose bytes come from `source`; fails if they are not exactly `size` bytes. */
  async addStream(name: string, size: number, source: Iterable<Buffer> | AsyncIterable<Buffer> | Readable, onChunk?: (chunk: Buffer) => void): Promise<void> {
    if (!/^[\x20-\x7e]{1,100}$/.test(name)) throw new Error(`Archive name too long or not ASCII: ${name}`);
    let written: () => void = () => {};
    let failed: (error: Error) => void = () => {};
    const entryDone = new Promise<void>((resolve, reject) => {
      written = resolve;
      failed = reject;
    });
    entryDone.catch(() => {});
    // Private: unpacked by hand, its files stay the owner's.
    const entry = this.pack.entry({ name, size, mode: 0o600, type: 'file' }, (error) => (error ? failed(error) : written()));
    let count = 0;
    for await (const chunk of source as Iterable<Buffer>) {
      count += chunk.length;
      if (count > size) throw new Error(`${name} grew while it was archived`);
      onChunk?.(chunk);
      if (!entry.write(chunk)) await once(entry as unknown as NodeJS.EventEmitter, 'drain');
    }
    if (count !== size) throw new Error(`${name} has ${count} bytes, expected ${size}`);
    entry.end(null);
    await entryDone;
  }

  async addBuffer(name: string, bytes: Buffer): Promise<void> {
    await this.addStream(name, bytes.length, [bytes]);
  }

  /** Writes the two empty blocks that end an archive, and ends the stream once they are written. */
  async finish(): Promise<void> {
    this.pack.finalize();
    await this.done;
  }
}

export interface TarEntry {
  name: string;
  size: number;
  /** Where the entry's bytes start in the archive file. */
  offset: number;
}

/**
 * Reads a whole archive through tar-stream's parser, calling `onEntry` for each regular file (its
 * bytes are skipped); answers where the last entry's bytes end. A damaged header or an archive
 * cut short is an error that says so.
 */
async function walk(source: Readable, onEntry: (entry: TarEntry) => void): Promise<number> {
  const parser = extract();
  let position = 0;
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser as unknown as NodeJS.WritableStream);
  try {
    for await (const stream of parser) {
      const { header } = stream;
      const offset = stream.offset + BLOCK;
      position = offset + Math.ceil(header.size / BLOCK) * BLOCK;
      if (header.type === 'file') onEntry({ name: header.name, size: header.size, offset });
      stream.resume();
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/Unexpected end of data/.test(message)) throw new Error('The archive is cut short');
    throw new Error(`Not a backup archive (damaged header at byte ${position})`);
  }
  return position;
}

/** The entries of an archive file, in order; a damaged header is an error that says so. */
export async function listTarEntries(file: FileHandle): Promise<TarEntry[]> {
  const entries: TarEntry[] = [];
  await walk(file.createReadStream({ start: 0, autoClose: false, highWaterMark: 1024 * 1024 }), (entry) => entries.push(entry));
  return entries;
}

/**
 * Checks that `bytes` are a whole tar (every header's checksum, no entry past the end, the
 * end-of-archive block), as a tool that unpacks it in memory expects: PGlite's loader, handed a
 * damaged one, tries it again as gzip on a stream whose failure no caller can catch, and the
 * process dies with a stack.
 */
export async function assertWholeTar(bytes: Buffer): Promise<void> {
  const end = await walk(Readable.from([bytes]), () => {});
  const marker = bytes.subarray(end, end + BLOCK);
  if (marker.length < BLOCK || !marker.every((byte) => byte === 0)) throw new Error('The archive is cut short');
}

/** An entry's bytes as a stream. */
export function readTarEntry(file: FileHandle, entry: TarEntry): Readable {
  if (entry.size === 0) return Readable.from([]);
  return file.createReadStream({ start: entry.offset, end: entry.offset + entry.size - 1, autoClose: false, highWaterMark: 1024 * 1024 });
}

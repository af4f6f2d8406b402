import { once } from 'node:events';
import type { FileHandle } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';

/**
 * The backup archive is a plain POSIX tar (ustar), so `tar -tf` lists it and `tar -xf` unpacks it
 * by hand in an emergency. Only what a backup needs: regular files, names under 100 bytes, sizes
 * past 8 GiB in the GNU base-256 form. Written as a stream (a backup is never held in memory);
 * read from a file by offset (restore reads the archive twice: verify, then fill).
 */
const BLOCK = 512;
const END_OF_ARCHIVE = Buffer.alloc(BLOCK * 2);
/** The largest size the 11 octal digits of a ustar header hold. */
const MAX_OCTAL_SIZE = 0o77777777777;

export class TarWriter {
  constructor(private readonly out: Writable) {}

  private async write(chunk: Buffer): Promise<void> {
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  /** Adds a file whose bytes come from `source`; fails if they are not exactly `size` bytes. */
  async addStream(name: string, size: number, source: Iterable<Buffer> | AsyncIterable<Buffer> | Readable, onChunk?: (chunk: Buffer) => void): Promise<void> {
    await this.write(header(name, size));
    let written = 0;
    for await (const chunk of source as Iterable<Buffer>) {
      written += chunk.length;
      if (written > size) throw new Error(`${name} grew while it was archived`);
      onChunk?.(chunk);
      await this.write(chunk);
    }
    if (written !== size) throw new Error(`${name} has ${written} bytes, expected ${size}`);
    const padding = (BLOCK - (size % BLOCK)) % BLOCK;
    if (padding > 0) await this.write(Buffer.alloc(padding));
  }

  async addBuffer(name: string, bytes: Buffer): Promise<void> {
    await this.addStream(name, bytes.length, [bytes]);
  }

  /** Writes the two empty blocks that end an archive, and ends the stream. */
  async finish(): Promise<void> {
    await this.write(END_OF_ARCHIVE);
    this.out.end();
    await once(this.out, 'finish');
  }
}

function header(name: string, size: number): Buffer {
  const bytes = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(name) > 100) throw new Error(`Archive name too long: ${name}`);
  bytes.write(name, 0, 100, 'utf8');
  bytes.write('0000600\0', 100, 8, 'ascii'); // private: unpacked by hand, its files stay the owner's
  bytes.write('0000000\0', 108, 8, 'ascii');
  bytes.write('0000000\0', 116, 8, 'ascii');
  if (size <= MAX_OCTAL_SIZE) {
    bytes.write(size.toString(8).padStart(11, '0') + '\0', 124, 12, 'ascii');
  } else {
    // GNU base-256: the high bit of the first byte set, the size big-endian in the rest.
    bytes[124] = 0x80;
    bytes.writeBigUInt64BE(BigInt(size), 128);
  }
  bytes.write(Math.floor(Date.now() / 1000).toString(8).padStart(11, '0') + '\0', 136, 12, 'ascii');
  bytes.write('        ', 148, 8, 'ascii');
  bytes.write('0', 156, 1, 'ascii');
  bytes.write('ustar\0', 257, 6, 'ascii');
  bytes.write('00', 263, 2, 'ascii');
  let sum = 0;
  for (const byte of bytes) sum += byte;
  bytes.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
  return bytes;
}

export interface TarEntry {
  name: string;
  size: number;
  /** Where the entry's bytes start in the archive file. */
  offset: number;
}

/** The entry a header block describes, or an error naming where the header is damaged. */
function entryOf(block: Buffer, position: number): TarEntry {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  if (sum !== Number.parseInt(block.toString('ascii', 148, 156).replace(/[\0 ]/g, ''), 8)) {
    throw new Error(`Not a backup archive (damaged header at byte ${position})`);
  }
  const name = block.toString('utf8', 0, 100).replace(/\0.*$/s, '');
  const size = block[124]! & 0x80 ? Number(block.readBigUInt64BE(128)) : Number.parseInt(block.toString('ascii', 124, 136).replace(/\0.*$/s, ''), 8);
  if (!Number.isSafeInteger(size) || size < 0) throw new Error(`Not a backup archive (damaged header at byte ${position})`);
  return { name, size, offset: position + BLOCK };
}

/** The entries of an archive file, in order; a damaged header is an error that says so. */
export async function listTarEntries(file: FileHandle): Promise<TarEntry[]> {
  const entries: TarEntry[] = [];
  const block = Buffer.alloc(BLOCK);
  const { size: total } = await file.stat();
  let position = 0;
  while (position + BLOCK <= total) {
    await file.read(block, 0, BLOCK, position);
    if (block.every((byte) => byte === 0)) break;
    const entry = entryOf(block, position);
    entries.push(entry);
    position = entry.offset + Math.ceil(entry.size / BLOCK) * BLOCK;
  }
  if (position > total) throw new Error('The archive is cut short');
  return entries;
}

/**
 * Checks that `bytes` are a whole tar (every header's checksum, no entry past the end), as a
 * tool that unpacks it in memory expects: PGlite's loader, handed a damaged one, tries it again
 * as gzip on a stream whose failure no caller can catch, and the process dies with a stack.
 */
export function assertWholeTar(bytes: Buffer): void {
  let position = 0;
  let ended = false;
  while (position + BLOCK <= bytes.length) {
    const block = bytes.subarray(position, position + BLOCK);
    if (block.every((byte) => byte === 0)) {
      ended = true;
      break;
    }
    const entry = entryOf(block, position);
    position = entry.offset + Math.ceil(entry.size / BLOCK) * BLOCK;
  }
  if (!ended || position > bytes.length) throw new Error('The archive is cut short');
}

/** An entry's bytes as a stream. */
export function readTarEntry(file: FileHandle, entry: TarEntry): Readable {
  if (entry.size === 0) return Readable.from([]);
  return file.createReadStream({ start: entry.offset, end: entry.offset + entry.size - 1, autoClose: false, highWaterMark: 1024 * 1024 });
}

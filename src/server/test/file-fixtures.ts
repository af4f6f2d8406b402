import { crc32, deflateSync } from 'node:zlib';

/**
 * Tiny, valid files made in code for tests and benchmarks (no binary files in git). Each is
 * recognised by its magic bytes the way a real file of that format is.
 */

/** An MPEG-1 Layer III frame (128 kbit/s, 44.1 kHz): header + silence, `frames` times. */
export function mp3Bytes(frames = 3): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** An MP3 that starts with an ID3v2 tag of `tagBytes` (as cover art makes them large). */
export function id3Mp3Bytes(tagBytes = 100_000): Buffer {
  const header = Buffer.from([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0, 0, 0, 0]);
  header[6] = (tagBytes >> 21) & 0x7f;
  header[7] = (tagBytes >> 14) & 0x7f;
  header[8] = (tagBytes >> 7) & 0x7f;
  header[9] = tagBytes & 0x7f;
  return Buffer.concat([header, Buffer.alloc(tagBytes), mp3Bytes()]);
}

/** A RIFF/WAVE file of a few silent 16-bit mono samples. */
export function wavBytes(samples = 64): Buffer {
  const data = samples * 2;
  const b = Buffer.alloc(44 + data);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(36 + data, 4);
  b.write('WAVEfmt ', 8, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(44_100, 24);
  b.writeUInt32LE(88_200, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(data, 40);
  return b;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A 1×1 opaque black PNG. */
export function pngBytes(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 0, 0, 0]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The start of a JFIF JPEG (SOI + APP0), which is what identifies the format. */
export function jpegBytes(): Buffer {
  return Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
    0x00, 0xff, 0xd9,
  ]);
}

/** A RIFF/WEBP container with an empty lossless (VP8L) chunk. */
export function webpBytes(): Buffer {
  const vp8l = Buffer.from([0x2f, 0x00, 0x00, 0x00, 0x00]);
  const chunk = Buffer.concat([Buffer.from('VP8L', 'latin1'), Buffer.from([vp8l.length, 0, 0, 0]), vp8l, Buffer.alloc(1)]);
  const b = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.alloc(4), Buffer.from('WEBP', 'latin1'), chunk]);
  b.writeUInt32LE(b.length - 8, 4);
  return b;
}

/** What a text file renamed to .mp3 contains. */
export function textBytes(): Buffer {
  return Buffer.from('These are my lyrics, not audio.\n'.repeat(20), 'utf8');
}

/** The start of an ISO-BMFF video (ftyp box + an mdat header): `isom` is MP4, `qt  ` is QuickTime (MOV). */
export function videoHeaderBytes(brand: 'isom' | 'qt  ' = 'isom'): Buffer {
  const b = Buffer.alloc(32);
  b.writeUInt32BE(24, 0);
  b.write('ftyp', 4, 'latin1');
  b.write(brand, 8, 'latin1');
  b.writeUInt32BE(0x200, 12);
  b.write(brand, 16, 'latin1');
  b.write('mp41', 20, 'latin1');
  b.writeUInt32BE(8, 24);
  b.write('mdat', 28, 'latin1');
  return b;
}

/** The start of a WebM file: an EBML header whose DocType is `webm`, then a Segment. */
export function webmHeaderBytes(): Buffer {
  return Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x87, 0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d, 0x18, 0x53, 0x80, 0x67, 0x81, 0x00]);
}

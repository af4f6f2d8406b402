import type { Readable } from 'node:stream';
import { MPEGDecoder } from 'mpg123-decoder';
import { WAVEFORM_POINTS, type Waveform } from '@shared/review-desk';

/**
 * A track's waveform (peak amplitude per equal slice), computed from a stream of its bytes in
 * constant memory: the bytes pass once, each block of PEAK_BLOCK_FRAMES frames leaves one number.
 * WAV (PCM 8/16/24/32-bit and 32-bit float) is read directly; MP3 goes through mpg123 compiled to
 * WebAssembly (no native binaries). Other formats answer null: the player then draws its
 * waveform-less bar (docs/decisions/112-waveform-peaks-on-the-server.md).
 */

const PEAK_BLOCK_FRAMES = 1024;

class PeakCollector {
  private readonly blocks: number[] = [];
  private blockMax = 0;
  private blockFrames = 0;
  frames = 0;

  /** One frame's loudest channel, as an absolute amplitude 0..1. */
  add(amplitude: number): void {
    if (amplitude > this.blockMax) this.blockMax = amplitude;
    if (++this.blockFrames === PEAK_BLOCK_FRAMES) this.flush();
    this.frames++;
  }

  private flush(): void {
    this.blocks.push(this.blockMax);
    this.blockMax = 0;
    this.blockFrames = 0;
  }

  /** `points` peaks (fewer for a very short track), each the loudest block of its slice. */
  finish(points: number, sampleRate: number): Waveform | null {
    if (this.blockFrames) this.flush();
    if (this.frames === 0 || sampleRate <= 0) return null;
    const n = Math.min(points, this.blocks.length);
    const peaks: number[] = [];
    for (let i = 0; i < n; i++) {
      const from = Math.floor((i * this.blocks.length) / n);
      const to = Math.max(from + 1, Math.floor(((i + 1) * this.blocks.length) / n));
      let max = 0;
      for (let j = from; j < to; j++) max = Math.max(max, this.blocks[j]!);
      peaks.push(Math.round(Math.min(1, max) * 1000) / 1000);
    }
    return { durationSeconds: this.frames / sampleRate, peaks };
  }
}

interface WavFormat {
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  float: boolean;
}

function readSample(buf: Buffer, offset: number, format: WavFormat): number {
  switch (format.bitsPerSample) {
    case 8:
      return (buf[offset]! - 128) / 128;
    case 16:
      return buf.readInt16LE(offset) / 32768;
    case 24:
      return buf.readIntLE(offset, 3) / 8388608;
    case 32:
      return format.float ? buf.readFloatLE(offset) : buf.readInt32LE(offset) / 2147483648;
    default:
      return 0;
  }
}

/** Parses RIFF/WAVE chunk by chunk; the sample data is never held beyond one stream chunk. */
async function wavPeaks(stream: AsyncIterable<Buffer>, points: number): Promise<Waveform | null> {
  let pending: Buffer = Buffer.alloc(0);
  let format: WavFormat | null = null;
  let dataLeft = -1;
  const peaks = new PeakCollector();
  for await (const chunk of stream) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    if (dataLeft < 0) {
      // Header: walk the chunks until `data`, reading `fmt ` on the way.
      if (pending.length < 12) continue;
      if (pending.toString('latin1', 0, 4) !== 'RIFF' || pending.toString('latin1', 8, 12) !== 'WAVE') return null;
      let at = 12;
      while (dataLeft < 0 && at + 8 <= pending.length) {
        const id = pending.toString('latin1', at, at + 4);
        const size = pending.readUInt32LE(at + 4);
        if (id === 'data') {
          if (!format) return null;
          dataLeft = size === 0 || size === 0xffffffff ? Number.MAX_SAFE_INTEGER : size;
          at += 8;
          break;
        }
        if (at + 8 + size > pending.length) break;
        if (id === 'fmt ') {
          const tag = pending.readUInt16LE(at + 8);
          const bits = pending.readUInt16LE(at + 22);
          // WAVE_FORMAT_EXTENSIBLE names the real format in its sub-format GUID's first two bytes.
          const realTag = tag === 0xfffe && size >= 26 ? pending.readUInt16LE(at + 32) : tag;
          if (realTag !== 1 && realTag !== 3) return null;
          format = { channels: pending.readUInt16LE(at + 10), sampleRate: pending.readUInt32LE(at + 12), bitsPerSample: bits, float: realTag === 3 };
          if (!format.channels || ![8, 16, 24, 32].includes(bits) || (format.float && bits !== 32)) return null;
        }
        at += 8 + size + (size % 2);
      }
      if (dataLeft < 0) {
        if (pending.length > 1 << 20) return null; // No `data` chunk in the first MiB: not a file we can read.
        continue;
      }
      pending = pending.subarray(at);
    }
    const fmt = format!;
    const bytesPerSample = fmt.bitsPerSample / 8;
    const frameBytes = bytesPerSample * fmt.channels;
    const usable = Math.min(dataLeft, pending.length - (pending.length % frameBytes));
    const whole = usable - (usable % frameBytes);
    for (let at = 0; at < whole; at += frameBytes) {
      let loudest = 0;
      for (let c = 0; c < fmt.channels; c++) {
        const v = Math.abs(readSample(pending, at + c * bytesPerSample, fmt));
        if (v > loudest) loudest = v;
      }
      peaks.add(loudest);
    }
    dataLeft -= whole;
    pending = Buffer.from(pending.subarray(whole));
    if (dataLeft <= 0) break;
  }
  return format ? peaks.finish(points, format.sampleRate) : null;
}

/** Decoding errors after which an MP3 counts as one this cannot decode (a few damaged frames are tolerated). */
const MP3_ERRORS_MAX = 50;
/** How much of the stream goes into the decoder at once, so a damaged file is given up on early. */
const MP3_FEED_BYTES = 64 * 1024;

async function mp3Peaks(stream: AsyncIterable<Buffer>, points: number): Promise<Waveform | null> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  const peaks = new PeakCollector();
  let sampleRate = 0;
  let errors = 0;
  try {
    for await (const chunk of stream) {
      for (let at = 0; at < chunk.byteLength; at += MP3_FEED_BYTES) {
        const piece = chunk.subarray(at, at + MP3_FEED_BYTES);
        const { channelData, samplesDecoded, sampleRate: rate, errors: pieceErrors } = decodeQuietly(decoder, piece);
        errors += pieceErrors.length;
        if (errors > MP3_ERRORS_MAX) return null;
        if (rate) sampleRate = rate;
        for (let i = 0; i < samplesDecoded; i++) {
          let loudest = 0;
          for (const channel of channelData) {
            const v = Math.abs(channel[i]!);
            if (v > loudest) loudest = v;
          }
          peaks.add(loudest);
        }
      }
    }
  } finally {
    decoder.free();
  }
  return peaks.finish(points, sampleRate);
}

/**
 * mpg123's WebAssembly build writes each decoding error to console.error itself, and a damaged or
 * crafted file has one every few hundred bytes: 100,000 lines for 100 MB. The errors also come
 * back in the result, where they are counted, so they are kept off stderr while it decodes. The
 * call is synchronous: no other code runs while console.error is replaced.
 */
function decodeQuietly(decoder: MPEGDecoder, bytes: Buffer) {
  const write = console.error;
  console.error = () => {};
  try {
    return decoder.decode(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } finally {
    console.error = write;
  }
}

/** The waveform of an audio stream of `contentType`, or null for a format this cannot decode. */
export async function computePeaks(stream: Readable, contentType: string, points = WAVEFORM_POINTS): Promise<Waveform | null> {
  try {
    if (contentType === 'audio/wav') return await wavPeaks(stream, points);
    if (contentType === 'audio/mpeg') return await mp3Peaks(stream, points);
    return null;
  } finally {
    stream.destroy();
  }
}

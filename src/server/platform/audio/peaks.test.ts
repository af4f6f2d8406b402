import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { computePeaks } from './peaks';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('computePeaks of an MP3', () => {
  it('gives up on a file that only looks like an MP3, without writing the decoder errors to stderr', async () => {
    const errors = vi.spyOn(console, 'error');
    // An MPEG frame header followed by 4 MB that is not audio (what a crafted upload could be).
    const bytes = Buffer.alloc(4 * 1024 * 1024, 0x5a);
    bytes.set([0xff, 0xfb, 0x90, 0x64]);
    const waveform = await computePeaks(Readable.from([bytes]), 'audio/mpeg');
    expect(waveform).toBeNull();
    expect(errors).not.toHaveBeenCalled();
    expect(console.error).toBe(errors);
  });
});

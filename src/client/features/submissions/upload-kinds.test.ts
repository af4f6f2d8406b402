import { describe, expect, it } from 'vitest';
import { FILE_LIMITS } from '@shared/submissions';
import { UPLOAD_KINDS, isAllowedType } from './upload-kinds';

describe('isAllowedType', () => {
  it('accepts a file by its extension, in any case, or by its MIME type', () => {
    const images = UPLOAD_KINDS.artwork.allowedTypes;
    expect(isAllowedType({ name: 'COVER.JPG', type: '' }, images)).toBe(true);
    expect(isAllowedType({ name: 'cover', type: 'image/webp' }, images)).toBe(true);
    expect(isAllowedType({ name: 'cover.gif', type: 'image/gif' }, images)).toBe(false);
  });

  it('takes an MP4 as music (SPEC §5) but no image as a video', () => {
    expect(isAllowedType({ name: 'track.mp4', type: 'video/mp4' }, UPLOAD_KINDS.music.allowedTypes)).toBe(true);
    expect(isAllowedType({ name: 'still.png', type: 'image/png' }, UPLOAD_KINDS.video.allowedTypes)).toBe(false);
  });
});

describe('UPLOAD_KINDS', () => {
  it('sends the music and the video resumably (they resume after a dropped connection, CONTRACT §23), and caps each image kind at its own count', () => {
    expect(Object.entries(UPLOAD_KINDS).filter(([, kind]) => kind.transport === 'resumable').map(([name]) => name)).toEqual(['music', 'video']);
    expect([UPLOAD_KINDS.artwork, UPLOAD_KINDS.style, UPLOAD_KINDS.character].map((kind) => [kind.maxFiles, kind.maxBytes])).toEqual([
      [1, FILE_LIMITS.imageBytes],
      [FILE_LIMITS.maxStyleImages, FILE_LIMITS.imageBytes],
      [FILE_LIMITS.maxCharacterImages, FILE_LIMITS.imageBytes],
    ]);
  });
});

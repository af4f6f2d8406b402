import { describe, expect, it } from 'vitest';
import { fileNameWithExtension } from './downloads';

describe('fileNameWithExtension', () => {
  it('keeps a name that has an extension, adds the checked type’s to one without, names a nameless file', () => {
    expect(fileNameWithExtension('night drive.wav', 'audio/wav')).toBe('night drive.wav');
    expect(fileNameWithExtension('cover', 'image/png')).toBe('cover.png');
    expect(fileNameWithExtension(null, 'audio/mpeg')).toBe('file.mp3');
    expect(fileNameWithExtension('  ', 'image/webp', 'style-image')).toBe('style-image.webp');
  });
});

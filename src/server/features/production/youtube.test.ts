import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isViralHit, viewsNeeded } from '@shared/production';
import { readSubscriberCount, readViewCount, youTubeVideoId, YouTubeError } from './youtube';
import { startYouTubeStub, type YouTubeStub } from '../../test/youtube-stub';

let stub: YouTubeStub;
beforeAll(async () => {
  stub = await startYouTubeStub({ subscribers: 31_000 });
});
afterAll(() => stub?.close());

describe('the YouTube Data API client', () => {
  it('reads the subscriber count and a video’s views; a wrong key or an unknown video is an error', async () => {
    const config = { apiKey: stub.apiKey, channelId: stub.channelId, apiUrl: stub.url };
    expect(await readSubscriberCount(config)).toBe(31_000);
    stub.views.set('abcDEF_123-', 15_500);
    expect(await readViewCount(config, 'abcDEF_123-')).toBe(15_500);
    await expect(readViewCount(config, 'missing0001')).rejects.toBeInstanceOf(YouTubeError);
    await expect(readSubscriberCount({ ...config, apiKey: 'wrong' })).rejects.toBeInstanceOf(YouTubeError);
    await expect(readSubscriberCount({ ...config, apiUrl: 'http://127.0.0.1:1' })).rejects.toBeInstanceOf(YouTubeError);
  });

  it('finds the video id in every shape of YouTube link', () => {
    for (const url of [
      'https://www.youtube.com/watch?v=abcDEF_123-',
      'https://youtube.com/watch?v=abcDEF_123-&t=10',
      'https://m.youtube.com/watch?v=abcDEF_123-',
      'https://youtu.be/abcDEF_123-',
      'https://www.youtube.com/shorts/abcDEF_123-',
      'https://www.youtube.com/embed/abcDEF_123-',
      'https://www.youtube.com/live/abcDEF_123-',
    ]) {
      expect(youTubeVideoId(url), url).toBe('abcDEF_123-');
    }
    for (const url of ['https://vimeo.com/123', 'https://www.youtube.com/channel/UC1', 'not a url', 'https://youtu.be/']) {
      expect(youTubeVideoId(url), url).toBeNull();
    }
  });

  it('decides a hit at exactly half the subscribers', () => {
    expect(viewsNeeded(31_000)).toBe(15_500);
    expect(isViralHit(15_500, 31_000)).toBe(true);
    expect(isViralHit(15_499, 31_000)).toBe(false);
    expect(viewsNeeded(31_001)).toBe(15_501);
    expect(isViralHit(15_500, 31_001)).toBe(false);
    expect(isViralHit(0, 0)).toBe(true);
  });
});

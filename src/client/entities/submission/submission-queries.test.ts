import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '@client/lib/query-client';
import { markSubmissionListStale } from './submission-queries';

afterEach(() => queryClient.clear());

describe('markSubmissionListStale', () => {
  it('reads the list again when a first read that predates the save is still on its way', async () => {
    // The dashboard's first read of the list, answered before the draft's save committed.
    const answers = [['before the save'], ['before the save', 'the draft']];
    let reads = 0;
    let answerFirst: () => void = () => {};
    const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
    const observer = new QueryObserver(queryClient, {
      queryKey: ['/api/submissions'],
      queryFn: async () => {
        const answer = answers[reads++]!;
        if (reads === 1) await firstAnswered;
        return answer;
      },
    });
    const unsubscribe = observer.subscribe(() => {});
    try {
      await expect.poll(() => reads).toBe(1);
      // The save lands while that first read is still in flight.
      const marked = markSubmissionListStale();
      answerFirst();
      await marked;
      await expect.poll(() => observer.getCurrentResult().data).toEqual(['before the save', 'the draft']);
      expect(reads).toBe(2);
    } finally {
      unsubscribe();
    }
  });
});

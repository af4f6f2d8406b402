import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { NewVersionInput, SubmissionVersion } from '@shared/versions';
import { FILE_LIMITS } from '@shared/submissions';
import { apiRequest } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';
import { uploadResumable } from '@client/lib/resumable-upload';

/** A submission's versions (CONTRACT §27), oldest first: for its artist and for the team. */
export const versionsKey = (submissionId: string) => ['/api/submissions', submissionId, 'versions'] as const;

/**
 * `round` is the round the submission shows now: a list kept from before a new version came (the
 * desk's and the dashboard's refresh the submission live) is read again.
 */
export function useSubmissionVersions(submissionId: string, round: number) {
  const query = useQuery<SubmissionVersion[]>({ queryKey: versionsKey(submissionId), enabled: round > 1 });
  const last = query.data?.at(-1)?.round;
  const { refetch } = query;
  useEffect(() => {
    if (last !== undefined && last < round) void refetch();
  }, [last, round, refetch]);
  return query;
}

/**
 * POST /api/submissions/{id}/versions: the artist's answer to a request for changes. Everything
 * that shows the submission is read afresh: the list, the counts, the versions, the desk.
 */
export function useSendVersion(submissionId: string) {
  return useMutation({
    mutationFn: (input: NewVersionInput) => apiRequest<SubmissionVersion>('POST', `/api/submissions/${encodeURIComponent(submissionId)}/versions`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['/api/submissions'] }),
  });
}

/**
 * The new version's file, resumable like every large upload (a dropped phone connection continues
 * from the last byte the server has), then checked by the server as the wizard's is: music (MP3,
 * WAV, OGG, MP4) for a track, a video for a finished video. Uppy and tus load with the first upload.
 */
export async function uploadVersionFile(file: File, kind: 'music' | 'video', onProgress: (percent: number) => void = () => {}): Promise<string> {
  const uploadURL = await uploadResumable(file, kind === 'video' ? FILE_LIMITS.videoBytes : FILE_LIMITS.musicBytes, onProgress);
  const body =
    kind === 'video' ? { videoFileURL: uploadURL, fileName: file.name, fileSize: file.size } : { musicFileURL: uploadURL, fileName: file.name, fileSize: file.size };
  const { objectPath } = await apiRequest<{ objectPath: string }>('PUT', kind === 'video' ? '/api/video-files' : '/api/music-files', body);
  return objectPath;
}

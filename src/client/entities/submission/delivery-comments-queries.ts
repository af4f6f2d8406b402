import { useMutation, useQuery } from '@tanstack/react-query';
import type { DeliveryComment, DeliveryCommentInput, ProductionState } from '@shared/production';
import { apiRequest } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';

/** CONTRACT §17: comments on a delivery and the artist's approval of a cut, on both sides. */

const commentsKey = (submissionId: string, deliveryId: string) => ['/api/submissions', submissionId, 'deliveries', deliveryId, 'comments'];
const commentsPath = (submissionId: string, deliveryId: string) => `/api/submissions/${submissionId}/deliveries/${deliveryId}/comments`;

export function useDeliveryComments(submissionId: string, deliveryId: string) {
  return useQuery<DeliveryComment[]>({ queryKey: commentsKey(submissionId, deliveryId) });
}

/** Adds or replaces a comment in the cached list, so it shows at once (posted here or pushed). */
function keep(submissionId: string, comment: DeliveryComment) {
  queryClient.setQueryData<DeliveryComment[]>(commentsKey(submissionId, comment.deliveryId), (list) => {
    if (!list) return list;
    const at = list.findIndex((c) => c.id === comment.id);
    if (at === -1) return [...list, comment];
    return list.map((c) => (c.id === comment.id ? comment : c));
  });
}

export function usePostDeliveryComment(submissionId: string, deliveryId: string) {
  return useMutation({
    mutationFn: (input: DeliveryCommentInput) => apiRequest<DeliveryComment>('POST', commentsPath(submissionId, deliveryId), input),
    onSuccess: (comment) => keep(submissionId, comment),
  });
}

export function useResolveDeliveryComment(submissionId: string, deliveryId: string) {
  return useMutation({
    mutationFn: (input: { commentId: string; resolved: boolean }) =>
      apiRequest<DeliveryComment>('PATCH', `${commentsPath(submissionId, deliveryId)}/${input.commentId}`, { resolved: input.resolved }),
    onSuccess: (comment) => keep(submissionId, comment),
  });
}

export function useApproveCut(submissionId: string) {
  return useMutation({
    mutationFn: (deliveryId: string) => apiRequest<ProductionState>('POST', `/api/submissions/${submissionId}/deliveries/${deliveryId}/approve`),
    onSuccess: (state) => {
      queryClient.setQueryData(['/api/submissions', submissionId, 'production'], state);
      return queryClient.invalidateQueries({ queryKey: ['/api/submissions'] });
    },
  });
}

/**
 * A comment pushed over /ws (CONTRACT §17), new or just resolved or reopened: shown as it now stands
 * at once, then the open list is read again, which marks a new one read for this side (so no email
 * goes out for a comment seen in time).
 */
export function receiveDeliveryComment(submissionId: string, comment: DeliveryComment): void {
  keep(submissionId, comment);
  void queryClient.invalidateQueries({ queryKey: commentsKey(submissionId, comment.deliveryId) });
}

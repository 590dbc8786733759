import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADOPTION_MESSAGES, type AdoptionAdDto, type RequestStatus } from '@pawhaven/contracts';
import { ApiError } from '../shared/api';
import { useToast } from '../shared/toast';
import { adoptionApi, adoptionKeys, invalidateAdoptions, patchListedAd } from './api';
import { failureText } from './format';

/** Deletes an ad (soft; its open requests close). The caller confirms first. */
export function useDeleteAd(fallback = 'Failed to delete adoption post') {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (ad: Pick<AdoptionAdDto, '_id'>) => adoptionApi.remove(ad._id),
    onSuccess: (res, ad) => {
      queryClient.setQueriesData<AdoptionAdDto[]>({ queryKey: ['adoptions', 'mine'] }, (old) =>
        old?.filter((x) => x._id !== ad._id),
      );
      invalidateAdoptions(queryClient);
      toast(res?.message || ADOPTION_MESSAGES.deleted, 'success');
    },
    onError: (err) => toast(failureText(err, fallback), 'error', 6000),
  });
}

/** The requester takes back their own pending request. */
export function useWithdrawRequest() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (v: { requestId: string; adId: string }) => adoptionApi.withdraw(v.requestId),
    onSuccess: (res, { requestId, adId }) => {
      patchListedAd(queryClient, adId, (ad) =>
        ad.myRequest?._id === requestId ? { ...ad, myRequest: { _id: requestId, status: 'withdrawn' } } : ad,
      );
      invalidateAdoptions(queryClient);
      toast(res?.message || ADOPTION_MESSAGES.withdrawn, 'success');
    },
    onError: (err) => toast(failureText(err, 'Failed to withdraw the request'), 'error', 6000),
  });
}

/**
 * The owner accepts or rejects a pending request. The owner's list shows the outcome at once (accept: ad adopted,
 * that request accepted, the other pending ones rejected; reject: that request rejected) and is then read again.
 */
export function useDecideRequest(ownerId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (v: { requestId: string; adId: string; status: 'accepted' | 'rejected' }) =>
      adoptionApi.decide(v.requestId, v.status),
    onSuccess: (_res, { requestId, adId, status }) => {
      const now = new Date().toISOString();
      queryClient.setQueryData<AdoptionAdDto[]>(adoptionKeys.mine(ownerId), (old) =>
        old?.map((ad) => {
          if (ad._id !== adId) return ad;
          const requests = ad.requests?.map((r) => {
            if (r._id === requestId) return { ...r, status: status as RequestStatus, respondedAt: now };
            if (status === 'accepted' && r.status === 'pending')
              return {
                ...r,
                status: 'rejected' as const,
                reason: ADOPTION_MESSAGES.anotherAccepted,
                respondedAt: now,
              };
            return r;
          });
          return { ...ad, status: status === 'accepted' ? 'adopted' : ad.status, requests };
        }),
      );
      invalidateAdoptions(queryClient);
      toast(status === 'accepted' ? ADOPTION_MESSAGES.accepted : ADOPTION_MESSAGES.rejected, 'success');
    },
    onError: (err, { status }) => {
      const reason =
        err instanceof ApiError
          ? (err.serverMessage ?? err.message)
          : err instanceof Error
            ? err.message
            : 'Unknown error';
      toast(
        `Failed to ${status === 'accepted' ? 'accept' : 'reject'} adoption request: ${reason}`,
        'error',
        6000,
      );
      // Someone else may have changed the ad meanwhile (another tab, a withdrawal): show the current state.
      invalidateAdoptions(queryClient);
    },
  });
}

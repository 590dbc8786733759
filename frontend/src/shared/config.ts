import { useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '@pawhaven/contracts';
import { api } from './api';

export const configQuery = {
  queryKey: ['config'] as const,
  queryFn: () => api.get<PublicConfig>('/api/config', { auth: false }),
  staleTime: Infinity,
  gcTime: Infinity,
  retry: 2,
};

/** The server's public settings: accepted mail domain, Google client id, OTP validity. */
export function useConfig() {
  return useQuery(configQuery);
}

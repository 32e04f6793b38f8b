// The typed API client (core's createApi) carrying the session's bearer token.
import type { Api } from '@adops/core';
import { useSession } from './useSession';

export function useApi(): Api {
  return useSession().api;
}

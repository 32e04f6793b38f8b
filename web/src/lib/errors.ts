// Turns any thrown value into the text a user should read.
import { ApiError } from '@adops/core';

/** The server's detail for an ApiError, the message for other errors, else the fallback. */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.detail) return error.detail;
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}

/**
 * A lock lost for good: the session is no longer this role's to write (its owner stopped sharing
 * it for writing, or it was deleted from the store). No process holds it and nothing is to be
 * taken back: what the holder has goes on in a fork (`Session.retake()` reports it as `revoked`).
 */
import { SessionDeletedError, ShareRevokedError } from './errors.js';

export type LostForGood = ShareRevokedError | SessionDeletedError;

/** `err` when it is a lock lost for good, else undefined. */
export function lostForGood(err: unknown): LostForGood | undefined {
  return err instanceof ShareRevokedError || err instanceof SessionDeletedError ? err : undefined;
}

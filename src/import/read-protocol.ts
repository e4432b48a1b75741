/**
 * What the import's reading threads (read-worker.ts) are sent and answer. A failure crosses as
 * plain data and is made again on this side as the error it was: a thread boundary keeps an
 * Error's message but not its class or its `code`.
 */
import type { Candidate } from './discover.js';
import { PeerFileError, type PeerConversation, type PeerTool } from './types.js';

export interface ReadRequest {
  n: number;
  tool: PeerTool;
  file: Candidate;
  since: Date | undefined;
}

export type ReadFailure =
  | { kind: 'peer'; reason: string }
  | { kind: 'system'; message: string; code: string }
  | { kind: 'other'; name: string; message: string; stack: string | undefined };

export type ReadAnswer = { n: number; conversation: PeerConversation | undefined } | { n: number; failure: ReadFailure };

export function describeFailure(err: unknown): ReadFailure {
  if (err instanceof PeerFileError) return { kind: 'peer', reason: err.reason };
  const e = err instanceof Error ? err : new Error(String(err));
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') return { kind: 'system', message: e.message, code };
  return { kind: 'other', name: e.name, message: e.message, stack: e.stack };
}

export function failureError(failure: ReadFailure): Error {
  if (failure.kind === 'peer') return new PeerFileError(failure.reason);
  if (failure.kind === 'system') return Object.assign(new Error(failure.message), { code: failure.code });
  const err = new Error(failure.message);
  err.name = failure.name;
  if (failure.stack !== undefined) err.stack = failure.stack;
  return err;
}

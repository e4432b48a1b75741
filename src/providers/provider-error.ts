/**
 * Failures of an assistant's API that the user can act on (network, key, model, rate limit,
 * server, a stream cut short). The REPL prints the one-line message and carries on.
 */
import { ChatkeepError } from '../session/api/errors.js';

/** Why a provider request failed; lets callers react without parsing the message. */
export type ProviderErrorKind =
  | 'unreachable'
  | 'unauthorized'
  | 'unknown-model'
  | 'not-found'
  | 'quota'
  | 'rate-limited'
  | 'server'
  | 'bad-request'
  | 'cut-off'
  | 'unknown';

/** A provider request failed: one line naming the cause and the fix, exit code 1. */
export class ProviderError extends ChatkeepError {
  /** The machine-readable cause. */
  readonly kind: ProviderErrorKind;
  /** HTTP status when the server answered, else undefined. */
  readonly status: number | undefined;
  constructor(message: string, kind: ProviderErrorKind = 'unknown', status?: number) {
    super(message, 'E_PROVIDER', 1);
    this.kind = kind;
    this.status = status;
  }

  /** The stream ended before the reply did: what arrived is real and is kept, marked interrupted. */
  static cutOff(): ProviderError {
    return new ProviderError('the reply was cut off mid-stream: the partial reply is kept', 'cut-off');
  }
}

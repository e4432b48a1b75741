/**
 * Turns an SDK failure into a one-line `ProviderError` naming the cause and the fix. Shared by
 * the SDK-backed providers; it never imports an SDK itself (each passes its own error classes).
 */
import { printable } from '../session/api/errors.js';
import { ProviderError } from './provider-error.js';

/** The shape both official SDKs give their HTTP errors. */
interface SdkApiError extends Error {
  status: number | undefined;
  headers: Headers | undefined;
  error: unknown;
}

/** The error classes of one SDK (`@anthropic-ai/sdk` and `openai` both export these names). */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => SdkApiError;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

/** What the message needs to name. */
export interface FailureContext {
  /** `anthropic` or `openai`. */
  provider: string;
  model: string;
  /** The base URL in use (the default or `*_BASE_URL`), as `shownURL` gives it. */
  baseURL: string;
  keyVar: string;
  baseVar: string;
  /** Removed from any text a server sent back, so the key is never shown. */
  apiKey: string;
}

/**
 * A provider's `catch` around its request or its stream: throws the described failure, or
 * returns when the caller aborted (`signal.aborted`) or the error is an abort, for the
 * stream to end quietly.
 */
export function throwUnlessAborted(
  error: unknown,
  sdk: SdkErrorClasses,
  ctx: FailureContext,
  phase: 'request' | 'stream',
  signal: AbortSignal | undefined,
): void {
  const described = signal?.aborted ? null : describeFailure(error, sdk, ctx, phase);
  if (described !== null) throw described;
}

/**
 * Describes `error`, thrown while sending the request (`phase: 'request'`) or while reading
 * the streamed reply (`phase: 'stream'`). Returns null for an abort: nothing to explain.
 */
export function describeFailure(
  error: unknown,
  sdk: SdkErrorClasses,
  ctx: FailureContext,
  phase: 'request' | 'stream',
): ProviderError | null {
  if (error instanceof ProviderError) return error;
  if (error instanceof sdk.APIUserAbortError || isAbort(error)) return null;
  // Once the reply has started, a dropped connection or an error event means the same thing to the user.
  if (phase === 'stream' && !(error instanceof sdk.APIError && error.status !== undefined)) {
    return ProviderError.cutOff();
  }
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return new ProviderError(`no answer from ${ctx.baseURL} in time: try again, or check ${ctx.baseVar}`, 'unreachable');
  }
  if (error instanceof sdk.APIConnectionError) {
    return new ProviderError(`cannot reach ${ctx.baseURL}: check ${ctx.baseVar} or your network`, 'unreachable');
  }
  if (error instanceof sdk.APIError && error.status !== undefined) return describeStatus(error, ctx);
  const detail = error instanceof Error ? error.message : String(error);
  return new ProviderError(`${ctx.provider} request failed: ${clean(detail, ctx)}`, 'unknown');
}

function describeStatus(error: SdkApiError, ctx: FailureContext): ProviderError {
  const status = error.status ?? 0;
  const said = serverMessage(error.error);
  if (status === 401) return new ProviderError(`the API key was rejected (401): check ${ctx.keyVar}`, 'unauthorized', status);
  if (status === 403) {
    return new ProviderError(`access denied (403): check ${ctx.keyVar} and your account's access to "${ctx.model}"`, 'unauthorized', status);
  }
  if (status === 404) {
    // A wrong base URL also answers 404; only a reply that mentions the model blames the model.
    if (/model/i.test(said)) {
      return new ProviderError(`unknown model "${printable(ctx.model)}" (404): pick one with --model`, 'unknown-model', status);
    }
    return new ProviderError(`nothing found at ${ctx.baseURL} (404): check ${ctx.baseVar}`, 'not-found', status);
  }
  // OpenAI answers 429 both for "slow down" and for "out of credit"; only the body tells them apart.
  if (status === 402 || (status === 429 && /insufficient_quota|quota|billing/i.test(`${said} ${errorCode(error)}`))) {
    return new ProviderError(`out of credit (${status}): check the plan and billing of the account behind ${ctx.keyVar}`, 'quota', status);
  }
  if (status === 429) {
    const wait = retryAfterSeconds(error.headers);
    const when = wait === undefined ? 'shortly' : `in ${wait} s`;
    return new ProviderError(`rate limited (429): try again ${when}`, 'rate-limited', status);
  }
  if (status >= 500) return new ProviderError(`server error (${status}) from ${ctx.provider}: try again`, 'server', status);
  const detail = said ? `: ${clean(said, ctx)}` : '';
  return new ProviderError(`the request was refused (${status})${detail}`, 'bad-request', status);
}

/** Seconds to wait, from `retry-after-ms`, `retry-after` (seconds or an HTTP date); rounded up. */
export function retryAfterSeconds(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'));
  if (headers?.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return Math.ceil(ms / 1000);
  const raw = headers?.get('retry-after')?.trim();
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** `host:port` of a URL, for labels (`openai llama3 (localhost:11434)`); the URL itself if it does not parse. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** A URL fit to show: without user name, password, query or fragment. */
export function shownURL(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.href.replace(/\/$/, '');
  } catch {
    return printable(url);
  }
}

/** The human message inside an error body (`{error: {message}}` or `{message}`), or ''. */
function serverMessage(body: unknown): string {
  if (typeof body !== 'object' || body === null) return typeof body === 'string' ? body : '';
  const inner = 'error' in body ? body.error : undefined;
  if (typeof inner === 'object' && inner !== null && 'message' in inner && typeof inner.message === 'string') return inner.message;
  return 'message' in body && typeof body.message === 'string' ? body.message : '';
}

/** `code` or `type` from an error body, where the API gives one. */
function errorCode(error: SdkApiError): string {
  const body = error.error;
  if (typeof body !== 'object' || body === null) return '';
  const inner = 'error' in body && typeof body.error === 'object' && body.error !== null ? body.error : body;
  const code = 'code' in inner ? inner.code : 'type' in inner ? inner.type : undefined;
  return typeof code === 'string' ? code : '';
}

/** One line, short, and never the API key. */
function clean(text: string, ctx: FailureContext): string {
  const masked = ctx.apiKey.length >= 4 ? text.split(ctx.apiKey).join('***') : text;
  return printable(masked.replace(/\s+/g, ' ').trim(), 160);
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

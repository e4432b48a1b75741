/**
 * The `fetch` the providers' SDKs are given: a request over `node:http`/`node:https`, whose HTTP
 * parser is native, answered as a standard `Response` with a web stream for its body.
 *
 * Node's own fetch parses HTTP with llhttp compiled to WebAssembly. Once a reply has streamed, V8
 * recompiles llhttp's one huge parsing function with TurboFan on a worker thread (~50 ms of CPU
 * quiet, hundreds under load), and a process cannot exit before that compile ends: a one-shot run
 * spent longer leaving than receiving its reply. Keeping WebAssembly on the baseline compiler
 * (`--liftoff-only`, set at run time) avoided that, but a V8 flag changed at run time makes V8
 * reject the code cache Node keeps for its own modules, so everything fetch loads was compiled
 * from source before each first request (~16 ms, measured). Over `node:http` there is no
 * WebAssembly to compile and no flag to set.
 *
 * A body other than text or bytes (a stream, a form: chatkeep sends none) goes to the global
 * fetch, as does anything not http(s).
 */
import type { IncomingMessage } from 'node:http';

/** `fetch`'s signature, as the SDKs take it. */
export async function httpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const body = init.body;
  const plain = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
  if (!plain || typeof input === 'object' && !(input instanceof URL) || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    return fetch(input, init);
  }
  let response = await once(url, init);
  // Redirects are followed as fetch follows them (`redirect: 'follow'`, at most 20): a 303, or a
  // 301/302 of a POST, is asked again with GET and no body; credentials never go to another origin.
  for (let hops = 0; REDIRECTS.has(response.status) && response.headers.has('location') && (init.redirect ?? 'follow') === 'follow'; hops++) {
    if (hops === 20) throw new TypeError('fetch failed', { cause: new Error('redirect count exceeded') });
    await response.body?.cancel();
    const next = new URL(response.headers.get('location')!, url);
    const method = (init.method ?? 'GET').toUpperCase();
    const asGet = response.status === 303 ? method !== 'HEAD' : (response.status === 301 || response.status === 302) && method === 'POST';
    const headers = new Headers(init.headers);
    if (asGet) for (const name of ['content-type', 'content-length']) headers.delete(name);
    if (next.origin !== url.origin) for (const name of ['authorization', 'x-api-key', 'cookie', 'proxy-authorization']) headers.delete(name);
    init = { ...init, headers, ...(asGet ? { method: 'GET', body: undefined } : {}) };
    url.href = next.href;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fetch(url, init);
    response = await once(url, init);
  }
  return response;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** One request and its answer. */
async function once(url: URL, init: RequestInit): Promise<Response> {
  const body = init.body as string | Uint8Array | null | undefined;
  const signal = init.signal ?? undefined;
  if (signal?.aborted) throw abortReason(signal);
  const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  return new Promise<Response>((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers }, (res: IncomingMessage) => {
      signal?.removeEventListener('abort', onAbort);
      // Aborted while the body streams: the body's reader sees the abort, as with fetch.
      const abortBody = (): void => void res.destroy(abortReason(signal!) as Error);
      signal?.addEventListener('abort', abortBody, { once: true });
      res.once('close', () => signal?.removeEventListener('abort', abortBody));
      resolve(response(res));
    });
    const onAbort = (): void => {
      req.destroy();
      reject(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    // As fetch fails: a TypeError whose cause is what the network said.
    req.once('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? abortReason(signal) : new TypeError('fetch failed', { cause: err }));
    });
    req.end(body ?? undefined);
  });
}

async function response(res: IncomingMessage): Promise<Response> {
  const { Readable } = await import('node:stream');
  const headers = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const status = res.statusCode ?? 200;
  // A status without a body (204, 304) takes none.
  const empty = status === 204 || status === 205 || status === 304;
  if (empty) res.resume();
  const body = empty ? null : (Readable.toWeb(await decoded(res)) as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: res.statusMessage ?? '', headers });
}

/** The body as sent before a server compressed it (fetch does the same; chatkeep asks for none). */
async function decoded(res: IncomingMessage): Promise<NodeJS.ReadableStream & import('node:stream').Readable> {
  const encoding = res.headers['content-encoding']?.trim().toLowerCase();
  if (encoding !== 'gzip' && encoding !== 'x-gzip' && encoding !== 'deflate' && encoding !== 'br') return res;
  const zlib = await import('node:zlib');
  const { pipeline } = await import('node:stream');
  const inflate = encoding === 'br' ? zlib.createBrotliDecompress() : encoding === 'deflate' ? zlib.createInflate() : zlib.createGunzip();
  pipeline(res, inflate, () => undefined);
  return inflate;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * A local stand-in for the Anthropic Messages API and the OpenAI Chat Completions API: it
 * speaks each one's documented streaming wire format (server-sent events), can answer with
 * an error status, cut a stream midway or hang, and records every request it received.
 * Listens on 127.0.0.1, port 0; closed when the test finishes.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

export type FakeApi = 'anthropic' | 'openai';

/** A streamed reply: `text` pieces, each sent as its own event. */
export interface FakeStream {
  text: string[];
  usage?: { input: number; output: number };
  /** After this many pieces, end the body cleanly but without the API's closing events. */
  cutAfter?: number;
  /** After this many pieces, send nothing more until the client goes away or `drop()` cuts the connection. */
  hangAfter?: number;
  /** After this many pieces, send the API's mid-stream `error` event (Anthropic only), then end. */
  errorEventAfter?: number;
  /** Piece N is sent only once `before[N]` resolves: a model that thinks (0), or pauses mid-reply. */
  before?: Record<number, Promise<void>>;
}

/** No answer at all, not even headers, until the client gives up. */
export interface FakeSilence {
  silent: true;
}

/** An error answer: the API's JSON error body with this status. */
export interface FakeError {
  status: number;
  headers?: Record<string, string>;
  /** Overrides the human message in the API's error body. */
  message?: string;
}

export type FakeReply = FakeStream | FakeError | FakeSilence;

/** One request the server received. */
export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body. */
  body: Record<string, unknown>;
  /** True once the client closed the connection before the reply was complete. */
  clientGone: boolean;
}

export interface FakeLlmServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** What to put in `*_BASE_URL`: the origin for Anthropic, `<origin>/v1` for OpenAI. */
  baseURL: string;
  requests: FakeRequest[];
  /** Resolves when a request's client has gone away (abort, cut). */
  clientGone(index: number): Promise<void>;
  /** Cuts request `index`'s connection mid-reply (a dropped network), without ending the body. */
  drop(index: number): void;
  close(): Promise<void>;
}

/**
 * Starts a fake server for `api`. `replies` answer requests in order (the last one repeats),
 * or a function picks the reply per request.
 */
export async function startFakeLlmServer(
  api: FakeApi,
  replies: FakeReply | FakeReply[] | ((request: FakeRequest, index: number) => FakeReply),
): Promise<FakeLlmServer> {
  const requests: FakeRequest[] = [];
  const gone: Promise<void>[] = [];
  const responses: ServerResponse[] = [];
  const pick = (request: FakeRequest, index: number): FakeReply => {
    if (typeof replies === 'function') return replies(request, index);
    const list = Array.isArray(replies) ? replies : [replies];
    return list[Math.min(index, list.length - 1)] as FakeReply;
  };
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const request: FakeRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        clientGone: false,
      };
      const index = requests.push(request) - 1;
      responses[index] = res;
      gone[index] = new Promise((resolve) =>
        res.on('close', () => {
          if (!res.writableFinished) request.clientGone = true;
          resolve();
        }),
      );
      const reply = pick(request, index);
      if ('silent' in reply) return;
      if ('status' in reply) sendError(api, res, reply);
      else void sendStream(api, res, reply, String(request.body.model ?? 'fake-model'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  onTestFinished(close);
  return {
    origin,
    baseURL: api === 'openai' ? `${origin}/v1` : origin,
    requests,
    clientGone: async (index) => gone[index],
    drop: (index) => responses[index]?.socket?.destroy(),
    close,
  };
}

/** A URL where nothing listens (a port just opened and closed again): connection refused. */
export async function refusedURL(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'overloaded_error',
};

function sendError(api: FakeApi, res: ServerResponse, reply: FakeError): void {
  const type = ERROR_TYPES[reply.status] ?? 'api_error';
  const message = reply.message ?? `fake ${type}`;
  const body =
    api === 'anthropic'
      ? { type: 'error', error: { type, message } }
      : { error: { message, type, param: null, code: type } };
  res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
  res.end(JSON.stringify(body));
}

async function sendStream(api: FakeApi, res: ServerResponse, reply: FakeStream, model: string): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.socket?.setNoDelay(true);
  const frames = api === 'anthropic' ? anthropicFrames(reply, model) : openaiFrames(reply, model);
  const stopAt = reply.cutAfter ?? reply.hangAfter ?? reply.errorEventAfter;
  for (const frame of frames) {
    const gate = frame.piece !== undefined ? reply.before?.[frame.piece] : undefined;
    if (gate) {
      await gate;
      if (res.destroyed) return;
    }
    if (stopAt !== undefined && frame.piece === stopAt) {
      if (reply.errorEventAfter !== undefined) {
        const error = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
        res.end(`event: error\ndata: ${JSON.stringify(error)}\n\n`);
        return;
      }
      if (reply.hangAfter === undefined) res.end(); // a cut: no closing events
      return; // a hang: the client gives up, or the test drops the connection
    }
    res.write(frame.data);
  }
  res.end();
}

interface Frame {
  /** How many text pieces precede this frame's end (so a cut after N pieces keeps N). */
  piece: number | undefined;
  data: string;
}

function anthropicFrames(reply: FakeStream, model: string): Frame[] {
  const usage = reply.usage ?? { input: 0, output: 0 };
  const sse = (event: string, data: object): string => `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;
  const head = [
    sse('message_start', {
      message: {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        content: [],
        model,
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: 1 },
      },
    }),
    sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    sse('ping', {}),
  ].join('');
  const tail = [
    sse('content_block_stop', { index: 0 }),
    sse('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output } }),
    sse('message_stop', {}),
  ].join('');
  return withPieces(
    head,
    reply.text.map((text) => sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
    tail,
  );
}

function openaiFrames(reply: FakeStream, model: string): Frame[] {
  const chunk = (choices: object[], usage: object | null = null): string =>
    `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_790_000_000, model, choices, usage })}\n\n`;
  const head = chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
  const usage = reply.usage;
  const tail = [
    chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
    usage ? chunk([], { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output }) : '',
    'data: [DONE]\n\n',
  ].join('');
  return withPieces(
    head,
    reply.text.map((content) => chunk([{ index: 0, delta: { content }, finish_reason: null }])),
    tail,
  );
}

/** Frames tagged so that a stop "after N pieces" happens before the frame that would be piece N+1. */
function withPieces(head: string, pieces: string[], tail: string): Frame[] {
  return [
    { piece: undefined, data: head },
    ...pieces.map((data, i) => ({ piece: i, data })),
    { piece: pieces.length, data: tail },
  ];
}

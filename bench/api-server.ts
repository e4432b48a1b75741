/**
 * A local server speaking just enough of the Anthropic Messages and OpenAI Chat Completions
 * streaming formats for one short reply. It notes when each request has fully arrived, so a
 * benchmark can time spawn → request beside a bare `fetch` of the same body.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface ArrivedRequest {
  path: string;
  body: string;
  /** performance.now() when the whole body had arrived. */
  at: number;
}

export interface ApiServer {
  origin: string;
  /** Resolves with the next request to arrive. */
  next(): Promise<ArrivedRequest>;
  close(): Promise<void>;
}

export async function startApiServer(): Promise<ApiServer> {
  const waiting: ((r: ArrivedRequest) => void)[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const arrived: ArrivedRequest = { path: req.url ?? '', body: Buffer.concat(parts).toString('utf8'), at: performance.now() };
      waiting.shift()?.(arrived);
      reply(arrived.path, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function reply(path: string, res: ServerResponse): void {
  if (path.endsWith('/messages')) {
    const sse = (type: string, data: object): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const usage = { input_tokens: 1, output_tokens: 1 };
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(
      sse('message_start', { message: { id: 'msg_bench', type: 'message', role: 'assistant', content: [], model: 'bench', stop_reason: null, stop_sequence: null, usage } }) +
        sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
        sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'ok' } }) +
        sse('content_block_stop', { index: 0 }) +
        sse('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage }) +
        sse('message_stop', {}),
    );
  } else if (path.endsWith('/chat/completions')) {
    const chunk = (choices: object[]): string =>
      `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'bench', choices, usage: null })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(
      chunk([{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null }]) +
        chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]) +
        'data: [DONE]\n\n',
    );
  } else {
    // The floor's request: any answer will do.
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  }
}

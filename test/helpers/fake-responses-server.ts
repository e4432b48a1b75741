/**
 * A local stand-in for the OpenAI Responses API (`POST /v1/responses`, plain or streamed), as the
 * OpenAI Agents SDK calls it: each request gets the next scripted list of output items, in the
 * API's wire format, with usage. Like the real API it answers 400 to an input whose function
 * call has no output, or whose output answers no call: a history a crash left half-written
 * fails here as it would there. Listens on 127.0.0.1, port 0; closed when the test finishes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/** One output item of a response, in the API's format (`{type: 'message', …}`, `{type: 'function_call', …}`). */
export type ResponseOutputItem = Record<string, unknown> & { type: string };

export interface FakeResponsesServer {
  /** What to give the OpenAI client as `baseURL`: `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  /** The parsed JSON bodies received, in order. */
  requests: Record<string, unknown>[];
  close(): Promise<void>;
}

/** An assistant message item saying `text`. */
export function said(id: string, text: string): ResponseOutputItem {
  return { type: 'message', id, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
}

/** A function call item. */
export function calls(id: string, callId: string, name: string, args: Record<string, unknown>): ResponseOutputItem {
  return { type: 'function_call', id, call_id: callId, name, arguments: JSON.stringify(args), status: 'completed' };
}

/** Why the real API would refuse this input, if it would: a call without its output, or an output without its call. */
export function refusal(input: unknown): string | undefined {
  if (!Array.isArray(input)) return undefined;
  const called = new Set<string>();
  const answered = new Set<string>();
  for (const item of input as Record<string, unknown>[]) {
    if (item.type === 'function_call') called.add(String(item.call_id));
    if (item.type === 'function_call_output') {
      if (!called.has(String(item.call_id))) return `No tool call found for function call output with call_id ${String(item.call_id)}.`;
      answered.add(String(item.call_id));
    }
  }
  for (const id of called) if (!answered.has(id)) return `No tool output found for function call ${id}.`;
  return undefined;
}

/** Starts the server; `replies[i]` is the output of the i-th request (the last one repeats). */
export async function startFakeResponsesServer(replies: ResponseOutputItem[][]): Promise<FakeResponsesServer> {
  const requests: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      const index = requests.push(body) - 1;
      const send = (status: number, payload: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      };
      if (req.method !== 'POST' || req.url !== '/v1/responses') return send(404, { error: { message: `no route ${req.url}`, type: 'invalid_request_error' } });
      const refused = refusal(body.input);
      if (refused) return send(400, { error: { message: refused, type: 'invalid_request_error', param: 'input', code: null } });
      const output = replies[Math.min(index, replies.length - 1)]!;
      const response = {
        id: `resp_${index + 1}`,
        object: 'response',
        created_at: 1_790_000_000 + index,
        status: 'completed',
        model: String(body.model ?? 'gpt-fake'),
        output,
        parallel_tool_calls: true,
        tool_choice: 'auto',
        tools: [],
        usage: { input_tokens: 10 + index, output_tokens: 5, total_tokens: 15 + index, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
      };
      if (body.stream !== true) return send(200, response);
      // Streamed: the response's creation, each text as one delta, then the whole response.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let sequence = 0;
      const event = (type: string, data: Record<string, unknown>): void => {
        res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
      };
      event('response.created', { response: { ...response, status: 'in_progress', output: [] } });
      output.forEach((item, i) => {
        for (const part of (item.content as { text?: string }[] | undefined) ?? []) {
          if (part.text) event('response.output_text.delta', { item_id: item.id, output_index: i, content_index: 0, delta: part.text });
        }
      });
      event('response.completed', { response });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = (): Promise<void> => new Promise((resolve) => server.close(() => resolve()));
  onTestFinished(async () => {
    server.closeAllConnections();
    await close();
  });
  return { baseURL: `http://127.0.0.1:${port}/v1`, requests, close };
}

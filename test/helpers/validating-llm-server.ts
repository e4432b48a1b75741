/**
 * A local stand-in for OpenAI Chat Completions, the OpenAI Responses API and Anthropic Messages
 * that checks each request's conversation as the real API does (`api-rules-*.ts`): a request
 * the API would refuse gets its 400 and error body, one it would accept the next scripted reply
 * (non-streaming). Listens on 127.0.0.1, port 0; closed when the test finishes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import { anthropicRefusal } from './api-rules-anthropic.js';
import { chatRefusal, responsesRefusal } from './api-rules-openai.js';

type Obj = Record<string, unknown>;
export type ValidatedApi = 'chat' | 'responses' | 'anthropic';

/** What the model answers, per API: a Chat Completions `message`, Responses `output` items, Anthropic `content` blocks. */
export interface Script {
  chat?: Obj[];
  responses?: Obj[][];
  anthropic?: Obj[][];
}

export interface ValidatedRequest {
  api: ValidatedApi;
  body: Obj;
  /** The refusal the server answered with, if any. */
  refused?: string;
}

export interface ValidatingServer {
  /** `http://127.0.0.1:<port>`: Anthropic's base URL (OpenAI's is `${origin}/v1`). */
  origin: string;
  requests: ValidatedRequest[];
}

const ROUTES: Record<string, ValidatedApi> = { '/v1/chat/completions': 'chat', '/v1/responses': 'responses', '/v1/messages': 'anthropic' };
const RULES: Record<ValidatedApi, (body: Obj) => string | undefined> = { chat: chatRefusal, responses: responsesRefusal, anthropic: anthropicRefusal };

function reply(api: ValidatedApi, body: Obj, answer: unknown, n: number): Obj {
  const usage = { input: 10 + n, output: 5 + n };
  if (api === 'chat') {
    return {
      id: `chatcmpl-${n}`, object: 'chat.completion', created: 1_790_000_000, model: body.model,
      choices: [{ index: 0, message: answer, finish_reason: (answer as Obj).tool_calls ? 'tool_calls' : 'stop', logprobs: null }],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    };
  }
  if (api === 'responses') {
    return {
      id: `resp_${n}`, object: 'response', created_at: 1_790_000_000, status: 'completed', model: body.model, output: answer,
      usage: { input_tokens: usage.input, output_tokens: usage.output, total_tokens: usage.input + usage.output },
    };
  }
  return {
    id: `msg_${n}`, type: 'message', role: 'assistant', model: body.model, content: answer, stop_reason: 'end_turn', stop_sequence: null,
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  };
}

function errorBody(api: ValidatedApi, message: string): Obj {
  if (api === 'anthropic') return { type: 'error', error: { type: 'invalid_request_error', message } };
  return { error: { message, type: 'invalid_request_error', param: null, code: null } };
}

/** Starts the server; each API answers its script's replies in order (the last one repeats). */
export async function startValidatingServer(script: Script): Promise<ValidatingServer> {
  const requests: ValidatedRequest[] = [];
  const served: Record<ValidatedApi, number> = { chat: 0, responses: 0, anthropic: 0 };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const api = ROUTES[(req.url ?? '').split('?')[0]!];
      if (!api || req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Not found' } }));
        return;
      }
      const body = JSON.parse(raw) as Obj;
      const refused = RULES[api](body);
      requests.push({ api, body, ...(refused ? { refused } : {}) });
      if (refused) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody(api, refused)));
        return;
      }
      const answers = script[api] ?? [];
      const n = served[api]++;
      const answer = answers[Math.min(n, answers.length - 1)] ?? (api === 'chat' ? { role: 'assistant', content: 'ok' } : [{ type: 'text', text: 'ok' }]);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply(api, body, answer, n)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** Small helpers shared by the provider tests. */
import { createProvider } from '../../../src/providers/index.js';
import type { Provider, StreamEvent } from '../../../src/models/types.js';
import type { Message } from '../../../src/session/api/data.js';
import { startFakeLlmServer, type FakeApi, type FakeLlmServer, type FakeReply } from '../../helpers/fake-llm-server.js';

/** What a consumer of a stream saw: the text pieces, the usage, and the error it ended with. */
export interface Seen {
  pieces: string[];
  text: string;
  usage: StreamEvent | undefined;
  error: unknown;
}

/** Reads a whole stream, catching the error it may end with. */
export async function consume(stream: AsyncIterable<StreamEvent>, onPiece?: (text: string) => void): Promise<Seen> {
  const pieces: string[] = [];
  let usage: StreamEvent | undefined;
  let error: unknown;
  try {
    for await (const event of stream) {
      if (event.type === 'text') {
        pieces.push(event.text);
        onPiece?.(event.text);
      } else usage = event;
    }
  } catch (caught) {
    error = caught;
  }
  return { pieces, text: pieces.join(''), usage, error };
}

const at = new Date('2026-11-22T10:00:00Z');

/** A resumed-looking conversation: two earlier turns, a tool exchange, and the new question. */
export const conversation: Message[] = [
  { role: 'user', content: 'My name is Ada.', timestamp: at },
  { role: 'assistant', content: 'Nice to meet you, Ada.', timestamp: at, usage: { inputTokens: 5, outputTokens: 6 } },
  {
    role: 'assistant',
    content: '',
    timestamp: at,
    toolCalls: [{ id: 'call_1', name: 'clock', arguments: '{"tz":"UTC"}' }],
  },
  { role: 'tool', content: '10:00', timestamp: at, toolCallId: 'call_1' },
  { role: 'user', content: 'What is my name?', timestamp: at },
];

/** The pieces a fake server streams: whitespace, newlines and non-ASCII must survive intact. */
export const pieces = ['Your ', 'name is', ' Ada', '.\n\n', 'Grüße 🙂', ' — bye'];

/** Builds a provider of one API against a fake server's base URL, with this many SDK retries. */
export type ProviderFor = (baseURL: string, maxRetries?: number) => Promise<Provider>;

/** A fake server of one API answering with `replies`, and a provider pointed at it. */
export type Serve = (replies: FakeReply | FakeReply[]) => Promise<{ server: FakeLlmServer; provider: Provider }>;

/**
 * How the tests of `api` build its provider: `providerFor` sets the API's own key and base URL
 * variables, `serve` starts a fake server of that API first.
 */
export function sdkProviderFor(api: FakeApi, model: string, key: string): { providerFor: ProviderFor; serve: Serve } {
  const prefix = api.toUpperCase();
  const providerFor: ProviderFor = async (baseURL, maxRetries = 0) =>
    createProvider(
      { name: api, model, source: 'flag' },
      { [`${prefix}_API_KEY`]: key, [`${prefix}_BASE_URL`]: baseURL },
      { maxRetries },
    );
  const serve: Serve = async (replies) => {
    const server = await startFakeLlmServer(api, replies);
    return { server, provider: await providerFor(server.baseURL) };
  };
  return { providerFor, serve };
}

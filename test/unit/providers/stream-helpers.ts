/** Small helpers shared by the provider tests. */
import type { StreamEvent } from '../../../src/providers/types.js';
import type { Message } from '../../../src/session/types.js';

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

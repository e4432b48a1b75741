import { describe, expect, it } from 'vitest';
import { createProvider } from '../../../src/providers/index.js';
import { EchoProvider, echoDelayFrom, splitWords } from '../../../src/providers/echo.js';
import type { StreamEvent } from '../../../src/models/types.js';
import type { Message } from '../../../src/session/api/data.js';

const at = new Date('2026-11-22T00:00:00Z');
const conversation: Message[] = [
  { role: 'user', content: 'hello there', timestamp: at },
  { role: 'assistant', content: 'Echo: hello there (read 1 message)', timestamp: at },
  { role: 'user', content: '  what  did I\tsay? ', timestamp: at },
];

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function text(events: StreamEvent[]): string {
  return events.map((e) => (e.type === 'text' ? e.text : '')).join('');
}

describe('echo provider', () => {
  it('replies with the last user message and how many messages it read, word by word', async () => {
    const events = await collect(new EchoProvider(0).stream(conversation));
    expect(text(events)).toBe('Echo:   what  did I\tsay?  (read 3 messages)');
    const texts = events.filter((e) => e.type === 'text');
    expect(texts.length).toBeGreaterThan(5);
    expect(texts[0]).toEqual({ type: 'text', text: 'Echo:   ' });
  });

  it('is deterministic: the same conversation gives the same chunks and usage', async () => {
    const a = await collect(new EchoProvider(0).stream(conversation));
    const b = await collect(new EchoProvider(1).stream(conversation));
    expect(a).toEqual(b);
  });

  it('reports usage as words in and words out, after the text', async () => {
    const events = await collect(new EchoProvider(0).stream(conversation));
    // input: 2 + 6 + 4 words; output: "Echo: what did I say? (read 3 messages)" = 8 words
    expect(events.at(-1)).toEqual({ type: 'usage', usage: { inputTokens: 12, outputTokens: 8 } });
  });

  it('stops at once, without throwing or usage, when the signal aborts', async () => {
    const controller = new AbortController();
    const seen: StreamEvent[] = [];
    for await (const event of new EchoProvider(60_000).stream(conversation, { signal: controller.signal })) {
      seen.push(event);
      controller.abort();
    }
    expect(seen).toEqual([{ type: 'text', text: 'Echo:   ' }]);
  });

  it('ends before the first chunk when the signal is already aborted', async () => {
    const events = await collect(new EchoProvider(0).stream(conversation, { signal: AbortSignal.abort() }));
    expect(events).toEqual([]);
  });

  it('splits keeping every whitespace character', () => {
    expect(splitWords('  a b\n\nc ').join('')).toBe('  a b\n\nc ');
    expect(splitWords('')).toEqual([]);
  });

  it('reads CHATKEEP_ECHO_DELAY_MS, with 8 ms as the default and 0 allowed', () => {
    expect(echoDelayFrom({})).toBe(8);
    expect(echoDelayFrom({ CHATKEEP_ECHO_DELAY_MS: '0' })).toBe(0);
    expect(echoDelayFrom({ CHATKEEP_ECHO_DELAY_MS: '25' })).toBe(25);
    expect(echoDelayFrom({ CHATKEEP_ECHO_DELAY_MS: 'soon' })).toBe(8);
  });

  it('pauses by default only where a person watches: on a pipe none, unless CHATKEEP_ECHO_DELAY_MS says so', async () => {
    expect(echoDelayFrom({}, false)).toBe(0);
    expect(echoDelayFrom({ CHATKEEP_ECHO_DELAY_MS: '25' }, false)).toBe(25);
    const piped = await createProvider({ name: 'echo', model: null, source: 'default' }, {}, { watched: false });
    expect(piped).toMatchObject({ delayMs: 0 });
    const watched = await createProvider({ name: 'echo', model: null, source: 'default' }, {}, { watched: true });
    expect(watched).toMatchObject({ delayMs: 8 });
  });

  it('is what createProvider builds for echo, labelled offline, with no model', async () => {
    const provider = await createProvider({ name: 'echo', model: null, source: 'default' }, {});
    expect(provider).toMatchObject({ name: 'echo', model: null, label: 'echo (offline)' });
  });
});

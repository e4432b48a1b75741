import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { messagesToSend, openSessions } from '../../src/index.js';
import { INTERRUPTED_CALL } from '../../src/session/model/history.js';
import { tmpHome } from '../helpers/tmp-home.js';

const LIBRARY = fileURLToPath(new URL('../../dist/src/index.js', import.meta.url));

/**
 * What an agent REPL stores: a system message, content in parts (text, an inline image, an
 * image by reference, signed reasoning, a refusal, a native item), tool calls with arguments
 * given as an object, a tool result with its status, and each message's metadata. Then a reply
 * streaming text and a tool call, cut by kill -9 mid-call.
 */
const AGENT = `
import { openSessions } from ${JSON.stringify(LIBRARY)};
const at = (n) => new Date(Date.UTC(2026, 10, 25, 10, 0, n));
const sessions = await openSessions({ home: process.env.HOME_DIR, cwd: process.env.HOME_DIR, env: {} });
const s = await sessions.create();
const given = [
  { role: 'system', content: 'You are a careful agent.', timestamp: at(0) },
  { role: 'user', timestamp: at(1), metadata: { ui: { draftId: 'd1', pinned: true } },
    content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' }, { type: 'image', url: 'https://example.com/cat.png', detail: 'low' }] },
  { role: 'assistant', content: 'A cat. Let me check the weather too.', timestamp: at(2), provider: 'anthropic', model: 'claude-test-1', id: 'msg_01',
    parts: [{ type: 'reasoning', text: 'Look at the image first.', signature: 'sig-abc' }, { type: 'text', text: 'A cat. Let me check the weather too.' }],
    toolCalls: [{ id: 'toolu_1', name: 'weather', arguments: { city: 'Paris', units: ['c'] } }],
    usage: { inputTokens: 10, outputTokens: 5, details: { cache_read_input_tokens: 3 } } },
  { role: 'tool', content: '18°C', toolCallId: 'toolu_1', name: 'weather', status: 'completed', timestamp: at(3) },
  { role: 'assistant', content: 'I cannot help with that.', timestamp: at(4), provider: 'openai', parts: [{ type: 'refusal', text: 'I cannot help with that.' }],
    native: { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'I cannot help with that.' }] } },
  { role: 'assistant', content: '', timestamp: at(5), provider: 'openai', parts: [{ type: 'native', item: { type: 'reasoning', id: 'rs_1', encrypted_content: 'gAAAAB', summary: [] } }] },
];
const stored = [];
for (const m of given) stored.push(await s.append(m));
const reply = s.beginReply();
const text = await reply.push('Checking the clock now ');
await reply.pushToolCall({ index: 0, id: 'call_9', name: 'clock' });
const call = await reply.pushToolCall({ index: 0, arguments: '{"tz": "UTC", "format":' });
process.stdout.write(JSON.stringify({ id: s.id, stored, shown: { text, call } }) + '\\n');
setInterval(() => {}, 1000);
`;

function runAgent(home: string): Promise<{ id: string; stored: unknown[]; shown: { text: string; call: unknown } }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', AGENT], { env: { ...process.env, HOME_DIR: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      if (!out.includes('\n')) return;
      // Everything reported is on disk: kill -9 now, mid-call.
      child.kill('SIGKILL');
      child.once('exit', () => resolve(JSON.parse(out) as never));
    });
    child.once('exit', (code) => {
      if (!out.includes('\n')) reject(new Error(`agent exited ${code}: ${err}`));
    });
  });
}

const asJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe("an agent's conversation survives kill -9 and comes back as valid model input", () => {
  it('resumes every field of every message, the tool call cut mid-stream included, and closes that call', async () => {
    const home = tmpHome();
    const agent = await runAgent(home);
    const sessions = await openSessions({ home, cwd: home, env: {} });
    const s = await sessions.resume(agent.id);
    const messages = asJson(s.messages) as Record<string, unknown>[];
    expect(messages.slice(0, agent.stored.length)).toEqual(agent.stored);
    // Spot checks of what the codec did on the way in.
    expect(messages[1]).toMatchObject({ role: 'user', content: 'What is in this picture?', metadata: { ui: { draftId: 'd1', pinned: true } } });
    expect(messages[2]).toMatchObject({ toolCalls: [{ id: 'toolu_1', name: 'weather', arguments: '{"city":"Paris","units":["c"]}' }] });
    // The reply cut off: what was shown, interrupted, holding the call as far as it was shown.
    expect(messages[agent.stored.length]).toMatchObject({ role: 'assistant', content: agent.shown.text, interrupted: true, toolCalls: [agent.shown.call] });
    expect(agent.shown.call).toEqual({ id: 'call_9', name: 'clock', arguments: '{"tz": "UTC", ' });
    expect(messages).toHaveLength(agent.stored.length + 1);

    // As model input: the interrupted call gets a result saying so; reasoning only for its writer.
    const toAnthropic = messagesToSend(s.messages, null, { provider: 'anthropic' });
    expect(toAnthropic.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'call_9', content: INTERRUPTED_CALL, status: 'incomplete' });
    expect(toAnthropic[2]!.parts?.map((p) => p.type)).toEqual(['reasoning', 'text']);
    expect(toAnthropic[5]!.parts).toEqual([]);
    const toOpenai = messagesToSend(s.messages, null, { provider: 'openai' });
    expect(toOpenai[2]!.parts?.map((p) => p.type)).toEqual(['text']);
    expect(toOpenai[5]!.parts?.map((p) => p.type)).toEqual(['native']);
    await s.close();

    // And from the snapshot (schemaVersion 3) the close wrote: the same, field for field.
    const read = await sessions.read(agent.id);
    expect(read.schemaVersion).toBe(3);
    expect(asJson(read.messages)).toEqual(messages);
  }, 30_000);
});

/**
 * The readline agent example (`examples/embed-openai-agent.mjs`) on the official `openai` SDK,
 * run through pipes against a server that refuses what the Chat Completions API refuses: its
 * tool call and result are stored, sent back in a form the API accepts, and still are after a
 * resume from disk; the host is at most 20 lines and printed in docs/library.md as it is.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../torture/proc.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { startValidatingServer } from '../helpers/validating-llm-server.js';

const AGENT = fileURLToPath(new URL('../../examples/embed-openai-agent.mjs', import.meta.url));
const CALLING = { role: 'assistant', content: null, refusal: null, annotations: [], tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'clock', arguments: '{}' } }] };
const ANSWER = { role: 'assistant', content: 'It is noon.', refusal: null, annotations: [] };

/** Runs the example with `input` piped, against `origin`; resolves to what it printed. */
function run(args: string[], input: string, home: string, origin: string): Promise<string> {
  const child = spawn(process.execPath, [AGENT, ...args], { cwd: ROOT, env: { ...process.env, CHATKEEP_HOME: home, OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: 'sk-fake', NO_COLOR: '1' } });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', () => resolve(out)));
}

function stored(home: string, id: string): { role: string; content: string; toolCalls?: unknown[]; toolCallId?: string }[] {
  const out = execFileSync(process.execPath, [`${ROOT}/bin/chatkeep.js`, 'sessions', 'show', id, '--json'], { cwd: ROOT, env: { ...process.env, CHATKEEP_HOME: home }, encoding: 'utf8' });
  return (JSON.parse(out) as { messages: { role: string; content: string; toolCalls?: unknown[]; toolCallId?: string }[] }).messages.map(({ role, content, toolCalls, toolCallId }) => ({ role, content, toolCalls, toolCallId }));
}

describe('the openai agent example', () => {
  it('is at most 20 lines of host code, printed in the docs as it is in examples/', () => {
    const code = readFileSync(AGENT, 'utf8');
    expect(code.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('//')).length).toBeLessThanOrEqual(20);
    expect(readFileSync(fileURLToPath(new URL('../../docs/library.md', import.meta.url)), 'utf8')).toContain(`\`\`\`js\n${code}\`\`\`\n`);
  });

  it('calls its tool, stores the call and its result, and sends them back as the API takes them, after a resume too', async () => {
    const server = await startValidatingServer({ chat: [CALLING, ANSWER] });
    const home = tmpHome();
    const first = await run([], 'what time is it?\n/quit\n', home, server.origin);
    expect(first).toContain('It is noon.');
    const id = /Resume with: node examples\/embed-openai-agent\.mjs (\S+)/.exec(first)?.[1];
    expect(id).toBeDefined();
    expect(server.requests.map((r) => r.refused)).toEqual([undefined, undefined]);
    const sent = server.requests[1]!.body.messages as { role: string; tool_call_id?: string }[];
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(sent[1]).toEqual(CALLING);
    expect(stored(home, id!)).toEqual([
      { role: 'user', content: 'what time is it?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'clock', arguments: '{}' }] },
      { role: 'tool', content: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown as string, toolCallId: 'call_1' },
      { role: 'assistant', content: 'It is noon.' },
    ]);

    const again = await run([id!], 'and now?\n/quit\n', home, server.origin);
    expect(again).toContain(`Resumed session ${id}`);
    expect(server.requests.map((r) => r.refused)).toEqual([undefined, undefined, undefined]);
    const resent = server.requests[2]!.body.messages as unknown[];
    expect(resent.slice(0, 2)).toEqual([{ role: 'user', content: 'what time is it?' }, CALLING]);
    expect(resent.slice(3)).toEqual([ANSWER, { role: 'user', content: 'and now?' }]);
  });

  it('prints the reply as stored (a key in it redacted), and records the model it talks to', async () => {
    const key = 'sk-ant-api03-Zq8xW2vB7nK4mP1rT6yU9iO3aS5dF0gH-jL2cX7vB';
    const server = await startValidatingServer({ chat: [{ ...ANSWER, content: `Your key is ${key} today.` }] });
    const home = tmpHome();
    const out = await run([], 'which key?\n/quit\n', home, server.origin);
    expect(out).toContain('Your key is [REDACTED:anthropic-key] today.');
    expect(out).not.toContain(key);
    const id = /Resume with: node examples\/embed-openai-agent\.mjs (\S+)/.exec(out)![1]!;
    const shown = execFileSync(process.execPath, [`${ROOT}/bin/chatkeep.js`, 'sessions', 'show', id], { cwd: ROOT, env: { ...process.env, CHATKEEP_HOME: home, NO_COLOR: '1' }, encoding: 'utf8' });
    expect(shown).toContain('openai gpt-4.1-mini');
    expect(shown).not.toContain('echo (offline)');
  });
});

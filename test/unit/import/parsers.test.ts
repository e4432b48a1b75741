/**
 * The three formats' readers on the files the tools wrote (test/fixtures/peers), and on variants
 * of them made by editing those lines the way the tools do: a rewind in Claude Code, a title, a
 * `$rewindTo` in Gemini CLI, a Codex CLI thread name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseClaude } from '../../../src/import/claude.js';
import { parseCodex } from '../../../src/import/codex.js';
import { parseGemini } from '../../../src/import/gemini.js';
import { PeerFileError } from '../../../src/import/types.js';
import { closeToolCalls, UNANSWERED } from '../../../src/session/model/history.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/peers');

function source(tool: string): { text: string; path: string; sessionId: string } {
  const dir = join(FIXTURES, readdirSync(FIXTURES).find((d) => d.startsWith(`${tool}-`))!);
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { sessionId: string; files: string[] };
  const file = manifest.files.find((f) => f.endsWith('.jsonl') && !f.endsWith('session_index.jsonl'))!;
  return { text: readFileSync(join(dir, file), 'utf8'), path: join(dir, file), sessionId: manifest.sessionId };
}

const when = new Date('2026-11-25T00:00:00Z');

describe('Claude Code sessions', () => {
  const { text, path, sessionId } = source('claude');
  const lines = text.split('\n').filter(Boolean);

  it('reads the conversation with its tool call, cwd, branch and model, and keeps every other line', () => {
    const c = parseClaude(text, path, when);
    expect(c).toMatchObject({ tool: 'claude', id: sessionId, cwd: '/tmp/chatkeep-peers/work', branch: 'feature/peer-import', model: 'claude-opus-5-5', title: null, lines: lines.length });
    expect(c.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    // Each line is a message, kept, or both (the tool result's structured copy): none vanishes.
    const asMessages = lines.filter((l) => /"type":"(user|assistant)"/.test(l) && !l.includes('"toolUseResult"')).length;
    expect(c.kept.length + asMessages).toBeGreaterThanOrEqual(lines.length);
  });

  it('follows the branch a rewind left last, keeping the abandoned one as source lines', () => {
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const firstReply = records.find((r) => r.type === 'assistant')!;
    const user = records.find((r) => r.type === 'user' && (r.message as { content: unknown }).content === 'Hello! Please remember the word aubergine.')!;
    const branch = { ...user, uuid: 'b1', parentUuid: firstReply.uuid, message: { role: 'user', content: 'Actually, forget the note.' } };
    const reply = { ...firstReply, uuid: 'b2', parentUuid: 'b1', message: { ...(firstReply.message as object), id: 'msg_branch', content: [{ type: 'text', text: 'Forgotten.' }] } };
    const titled = [...lines, JSON.stringify(branch), JSON.stringify(reply), JSON.stringify({ type: 'custom-title', customTitle: 'Aubergines', sessionId })];
    const c = parseClaude(titled.join('\n'), path, when);
    expect(c.messages.map((m) => m.content)).toEqual(['Hello! Please remember the word aubergine.', expect.stringMatching(/^q1w001/), 'Actually, forget the note.', 'Forgotten.']);
    expect(c.title).toBe('Aubergines');
    expect(c.kept.some((k) => k.line.includes('note.txt and tell me'))).toBe(true);
  });

  it('refuses what is not a Claude Code session', () => {
    expect(() => parseClaude('', path, when)).toThrow(PeerFileError);
    expect(() => parseClaude(source('codex').text, path, when)).toThrow('not a Claude Code session');
  });
});

describe('Codex CLI rollouts', () => {
  const { text, path, sessionId } = source('codex');

  it('reads messages, the function call and its output, leaving out the context Codex injects', () => {
    const c = parseCodex(text, path, when, new Map([[sessionId, 'Thread name']]));
    expect(c).toMatchObject({ tool: 'codex', id: sessionId, cwd: '/tmp/chatkeep-peers/work', branch: 'feature/peer-import', model: 'gpt-fake', title: 'Thread name' });
    expect(c.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    expect(c.messages[3]!.toolCalls![0]).toMatchObject({ name: 'exec_command', arguments: '{"cmd":"cat /tmp/chatkeep-peers/work/note.txt"}' });
    expect(c.messages[4]!.toolCallId).toBe(c.messages[3]!.toolCalls![0]!.id);
    expect(c.kept.some((k) => k.line.includes('<environment_context>'))).toBe(true);
  });

  it('refuses a file without session_meta', () => {
    expect(() => parseCodex(source('claude').text, path, when)).toThrow('not a Codex CLI rollout');
  });
});

describe('Gemini CLI chats', () => {
  const { text, path, sessionId } = source('gemini');

  it('replays the records (resume rewrites included) into one conversation with its tool call', () => {
    const c = parseGemini(text, path, when, '/tmp/chatkeep-peers/work');
    expect(c).toMatchObject({ tool: 'gemini', id: sessionId, cwd: '/tmp/chatkeep-peers/work', model: 'gemini-3.8-flash' });
    expect(c.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    // Times only ever move forward: a rewrite does not stamp old messages with its own time.
    const times = c.messages.map((m) => m.timestamp.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('cuts the conversation back at a $rewindTo, as Gemini CLI does', () => {
    const records = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const third = records.filter((r) => r.type === 'user' && typeof r.id === 'string').at(-1)!;
    const c = parseGemini(`${text}${JSON.stringify({ $rewindTo: third.id })}\n`, path, when, '/tmp/chatkeep-peers/work');
    expect(c.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
  });
});

describe('closing tool calls before a provider sees them', () => {
  it('answers a call that no result follows, after the results that did come', () => {
    const at = new Date(0);
    const messages = closeToolCalls([
      { role: 'user', content: 'go', timestamp: at },
      { role: 'assistant', content: '', timestamp: at, toolCalls: [{ id: 'a', name: 'x', arguments: '{}' }, { id: 'b', name: 'y', arguments: '{}' }] },
      { role: 'tool', content: 'A done', timestamp: at, toolCallId: 'a' },
      { role: 'user', content: 'next', timestamp: at },
    ]);
    expect(messages.map((m) => [m.role, m.toolCallId ?? null, m.content])).toEqual([
      ['user', null, 'go'],
      ['assistant', null, ''],
      ['tool', 'a', 'A done'],
      ['tool', 'b', UNANSWERED],
      ['user', null, 'next'],
    ]);
  });
});

/**
 * What the readers take from a fork's own file (test/fixtures/peer-forks, written by the tools):
 * Claude Code's copied lines, and Gemini CLI's checkpoints, with variants made by editing those
 * lines the way the tools do (`/branch` in Claude Code, an older Gemini CLI's bare history).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseClaude } from '../../../src/import/claude.js';
import { parseGeminiCheckpoint } from '../../../src/import/gemini-checkpoint.js';
import { PeerFileError } from '../../../src/import/types.js';

const FORKS = join(import.meta.dirname, '../../fixtures/peer-forks');
const when = new Date('2026-11-28T00:00:00Z');

function manifest(dir: string): { parent: string; fork: string; files: string[] } {
  return JSON.parse(readFileSync(join(FORKS, dir, 'manifest.json'), 'utf8')) as { parent: string; fork: string; files: string[] };
}

describe('Claude Code forks', () => {
  const m = manifest('claude-2.1.330');
  const read = (id: string): { text: string; path: string } => {
    const path = join(FORKS, 'claude-2.1.330', m.files.find((f) => f.endsWith(`${id}.jsonl`))!);
    return { text: readFileSync(path, 'utf8'), path };
  };

  it('names the conversation the copied replies were made in, up to the last one copied', () => {
    const fork = read(m.fork);
    expect(parseClaude(fork.text, fork.path, when)).toMatchObject({ id: m.fork, forkedFrom: { id: m.parent, at: 4 } });
    const parent = read(m.parent);
    expect(parseClaude(parent.text, parent.path, when).forkedFrom).toBeUndefined();
  });

  it('takes `/branch`\'s forkedFrom on every copied line as the conversation branched from', () => {
    const fork = read(m.fork);
    const lines = fork.text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const copied = lines.filter((r) => r.requestSessionId !== undefined).map((r) => r.uuid);
    // /branch copies the user lines too, each marked with the conversation and the line it copies.
    const upTo = lines.findIndex((r) => r.uuid === copied.at(-1));
    const branched = lines.map((r, i) =>
      (r.type === 'user' || r.type === 'assistant') && i <= upTo ? JSON.stringify({ ...r, forkedFrom: { sessionId: 'branched-from', messageUuid: r.uuid } }) : JSON.stringify(r),
    );
    expect(parseClaude(branched.join('\n'), fork.path, when).forkedFrom).toEqual({ id: 'branched-from', at: 4 });
  });
});

describe('Gemini CLI checkpoints', () => {
  const m = manifest('gemini-0.61.0');
  const path = join(FORKS, 'gemini-0.61.0', m.files.find((f) => f.endsWith(`${m.fork}.json`))!);
  const text = readFileSync(path, 'utf8');

  it('reads the history without the context block, titled by the tag, keeping the file as one line', () => {
    const c = parseGeminiCheckpoint(text, path, when, '/tmp/chatkeep-peers/work');
    expect(c).toMatchObject({ tool: 'gemini', id: 'work.checkpoint-two-words', title: 'two-words', lines: 1 });
    expect(c.messages.map((x) => [x.role, x.content.slice(0, 12)])).toEqual([
      ['user', 'Remember the'], ['assistant', 'q2w001 q2w00'], ['user', 'And the word'], ['assistant', 'q4w001 q4w00'],
    ]);
    expect(c.kept).toEqual([{ at: 4, line: JSON.stringify(JSON.parse(text)) }]);
  });

  it('reads an older version\'s bare history array the same way, and refuses what is not a checkpoint', () => {
    const bare = JSON.stringify((JSON.parse(text) as { history: unknown[] }).history);
    expect(parseGeminiCheckpoint(bare, path, when).messages).toEqual(parseGeminiCheckpoint(text, path, when).messages);
    expect(() => parseGeminiCheckpoint('{"authType":"x"}', path, when)).toThrow(PeerFileError);
    expect(() => parseGeminiCheckpoint('not json', path, when)).toThrow('not a Gemini CLI checkpoint (not JSON)');
  });
});

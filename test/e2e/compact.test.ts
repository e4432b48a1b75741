/**
 * `/compact [focus]` through the real CLI: the summary is stored and the summarised messages are
 * archived inside the session; later turns send the summary and the recent messages; the offer
 * and --auto-compact follow the token counts a provider reports; a failed or killed compaction
 * leaves the conversation as it was.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SUMMARY_INTRO } from '../../src/session/model/compaction.js';
import { startFakeLlmServer, type FakeReply, type FakeRequest } from '../helpers/fake-llm-server.js';
import { phrase, runPiped, startAtPrompt, spawnPty, type RunOptions } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

interface Shown {
  summary: string | null;
  messages: { role: string; content: string }[];
  archived: { summary: string | null; messages: { content: string }[] }[];
}

async function show(id: string, options: RunOptions): Promise<Shown> {
  const result = await runPiped(['sessions', 'show', id, '--json'], '', options);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Shown;
}

const contents = (messages: { content: string }[]): string[] => messages.map((m) => m.content);

/** The messages a fake server received in request `index`, as [role, text]. */
function sent(request: FakeRequest | undefined): [string, string][] {
  return (request?.body.messages as { role: string; content: string }[]).map((m) => [m.role, m.content]);
}

function isSummaryRequest(request: FakeRequest): boolean {
  return sent(request).at(-1)?.[1].startsWith('Summarise our conversation so far') === true;
}

/** A model that answers chat turns with `reply` and summary requests with `summary`. */
function assistant(reply: FakeReply, summary: FakeReply): (request: FakeRequest) => FakeReply {
  return (request) => (isSummaryRequest(request) ? summary : reply);
}

describe('/compact', () => {
  it('with echo: too little to compact is one line; then the summary is stored, the messages archived, and later turns read summary + recent', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd });
    await run.say('/compact', 'Nothing to compact yet: /compact summarises the messages before your last exchange, and there are 0.');
    await run.say('hello', 'Echo: hello (read 1 message)');
    await run.say('/compact', 'and there are 0.\n');
    await run.say('second', 'Echo: second (read 3 messages)');
    await run.say('/compact', `Summarised 2 earlier messages (archived inside ${id}); the summary and the last 2 messages go with your next message.`);
    // The summary, the kept exchange and the new message: four messages read.
    await run.say('third', 'Echo: third (read 4 messages)');
    expect(await run.quit()).toBe(0);

    const shown = await show(id, { home, cwd });
    expect(shown.summary).toBe('Summary of 2 messages: you said "hello".');
    expect(contents(shown.messages)).toEqual(['second', 'Echo: second (read 3 messages)', 'third', 'Echo: third (read 4 messages)']);
    expect(shown.archived.map((a) => [a.summary, contents(a.messages)])).toEqual([[null, ['hello', 'Echo: hello (read 1 message)']]]);
    const text = await runPiped(['sessions', 'show', id], '', { home, cwd });
    expect(text.stdout).toContain('[summary by /compact of earlier messages; 2 messages archived in this session (--json lists them under archived)]\nSummary of 2 messages: you said "hello".\n');

    // Resumed: the summary still goes first; a focus steers the next summary.
    const resumed = await runPiped(['--session-id', id], 'fourth\n/compact the plan\n', { home, cwd });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe(
      'Echo: fourth (read 6 messages)\n' +
        `Summarised 4 earlier messages (archived inside ${id}); the summary and the last 2 messages go with your next message.\n`,
    );
    const again = await show(id, { home, cwd });
    expect(again.summary).toMatch(/^Summary of 5 messages \(focus: the plan\): you said "Summary of our conversation so far/);
    expect(contents(again.messages)).toEqual(['fourth', 'Echo: fourth (read 6 messages)']);
    expect(again.archived.flatMap((a) => contents(a.messages))).toEqual([
      'hello', 'Echo: hello (read 1 message)', 'second', 'Echo: second (read 3 messages)', 'third', 'Echo: third (read 4 messages)',
    ]);
  });

  it('with anthropic: the offer appears past 80% of the context window; /compact FOCUS asks for a focused summary; later turns send summary + recent', async () => {
    const server = await startFakeLlmServer(
      'anthropic',
      assistant({ text: ['Noted.'], usage: { input: 170_000, output: 10 } }, { text: ['We planned', ' the API.'], usage: { input: 60, output: 4 } }),
    );
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const env = { ANTHROPIC_API_KEY: 'sk-test-not-real', ANTHROPIC_BASE_URL: server.origin, CHATKEEP_MAX_RETRIES: '0' };
    const { run, id } = await startAtPrompt(['--provider', 'anthropic', '--model', 'claude-sonnet-4-5'], { home, cwd, env });
    const offer =
      'Context 85% full (170,010 of 200,000 tokens of claude-sonnet-4-5): /compact [focus] summarises the earlier messages to make room (--auto-compact does it without asking).';
    // Longer than the terminal: broken between words, matched as read across rows.
    await run.say('one', phrase(offer));
    await run.say('two', /Noted\.\n[^]*Noted\.\n[^]*Context 85% full/);
    await run.say('/compact the API', phrase(`Summarised 2 earlier messages (archived inside ${id}); the summary and the last 2 messages go with your next message.`));
    const summaryRequest = server.requests[2]!;
    expect(isSummaryRequest(summaryRequest)).toBe(true);
    expect(sent(summaryRequest).slice(0, -1)).toEqual([['user', 'one'], ['assistant', 'Noted.']]);
    expect(sent(summaryRequest).at(-1)![1]).toMatch(/ Focus on: the API$/);
    await run.say('three', /three\n[^]*Noted\./);
    expect(sent(server.requests[3])).toEqual([
      ['user', `${SUMMARY_INTRO}We planned the API.`],
      ['user', 'two'],
      ['assistant', 'Noted.'],
      ['user', 'three'],
    ]);
    expect(await run.quit()).toBe(0);
    const shown = await show(id, { home, cwd, env });
    expect(shown.summary).toBe('We planned the API.');
    expect(contents(shown.messages)).toEqual(['two', 'Noted.', 'three', 'Noted.']);
    expect(contents(shown.archived[0]!.messages)).toEqual(['one', 'Noted.']);
  });

  it('with openai: --auto-compact (or config autoCompact) compacts without asking; an unknown model gets no offer', async () => {
    const server = await startFakeLlmServer(
      'openai',
      assistant({ text: ['Noted.'], usage: { input: 110_000, output: 10 } }, { text: ['Short summary.'], usage: { input: 60, output: 3 } }),
    );
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const env = { OPENAI_BASE_URL: server.baseURL, CHATKEEP_MAX_RETRIES: '0' };
    const args = ['--provider', 'openai', '--model', 'gpt-4o-mini'];
    const auto = await runPiped([...args, '--auto-compact'], 'one\ntwo\nthree\n', { home, cwd, env });
    expect(auto.code).toBe(0);
    // stdout carries only the replies: what auto-compaction says goes with the other status lines.
    expect(auto.stdout).toBe('Noted.\nNoted.\nNoted.\n');
    const fill = 'Context 85% full (110,010 of 128,000 tokens of gpt-4o-mini)';
    expect(auto.stderr).toContain(`${fill}: nothing to compact yet: /compact summarises the messages before your last exchange, and there are 0.\n`);
    expect(auto.stderr).toContain(`${fill}: compacting (--auto-compact).\nSummarised 2 earlier messages`);
    expect(server.requests.map(isSummaryRequest)).toEqual([false, false, true, false, true]);
    expect(sent(server.requests[3])[0]).toEqual(['user', `${SUMMARY_INTRO}Short summary.`]);
    const id = /Saved (\S+) \(/.exec(auto.stderr)![1]!;
    const shown = await show(id, { home, cwd, env });
    expect(shown.summary).toBe('Short summary.');
    expect(contents(shown.messages)).toEqual(['three', 'Noted.']);

    writeFileSync(join(home, 'config.json'), JSON.stringify({ autoCompact: true }));
    const fromConfig = await runPiped(args, 'one\ntwo\n', { home, cwd, env });
    expect(fromConfig.stderr).toContain(`${fill}: compacting (--auto-compact).\nSummarised 2 earlier messages`);

    writeFileSync(join(home, 'config.json'), '{}');
    const unknown = await runPiped(['--provider', 'openai', '--model', 'llama3.1'], 'one\ntwo\n', { home, cwd, env });
    expect(unknown.code).toBe(0);
    expect(unknown.stderr).not.toContain('Context');

    // Without a store, compaction works in memory and names no session.
    const unsaved = await runPiped([...args, '--no-persist', '--auto-compact'], 'one\ntwo\n', { home: tmpHome(), cwd, env });
    expect(unsaved.stderr).toContain('Summarised 2 earlier messages (archived inside this chat); the summary and the last 2 messages go with your next message.');
  });

  it('a provider error during the summary is one line and changes nothing', async () => {
    const server = await startFakeLlmServer('anthropic', assistant({ text: ['Noted.'], usage: { input: 5, output: 1 } }, { status: 500 }));
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const env = { ANTHROPIC_API_KEY: 'sk-test-not-real', ANTHROPIC_BASE_URL: server.origin, CHATKEEP_MAX_RETRIES: '0' };
    const result = await runPiped(['--provider', 'anthropic'], 'one\ntwo\n/compact\n', { home, cwd, env });
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('chatkeep: '))).toEqual([
      'chatkeep: /compact failed, nothing changed: server error (500) from anthropic: try again',
    ]);
    const id = /Saved (\S+) \(4 messages\)/.exec(result.stderr)![1]!;
    const shown = await show(id, { home, cwd, env });
    expect(shown.summary).toBeNull();
    expect(shown.archived).toEqual([]);
    expect(contents(shown.messages)).toEqual(['one', 'Noted.', 'two', 'Noted.']);
  });

  it('kill -9 while the summary is requested or stored: the resume finds the old conversation or the compacted one, never a loss', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    let release: () => void = () => {};
    const server = await startFakeLlmServer('anthropic', (request) => {
      if (!isSummaryRequest(request)) return { text: ['Noted.'], usage: { input: 5, output: 1 } };
      return { text: ['The', ' summary.'], usage: { input: 5, output: 2 }, before: { 1: new Promise<void>((r) => (release = r)) } };
    });
    const env = { ANTHROPIC_API_KEY: 'sk-test-not-real', ANTHROPIC_BASE_URL: server.origin, CHATKEEP_MAX_RETRIES: '0' };
    const { run, id } = await startAtPrompt(['--provider', 'anthropic'], { home, cwd, env });
    await run.say('one', 'Noted.');
    await run.say('two', /Noted\.[^]*Noted\./);
    const all = ['one', 'Noted.', 'two', 'Noted.'];

    // Ctrl-C while the assistant writes the summary stops it: nothing changed.
    run.line('/compact');
    await vi.waitFor(() => expect(server.requests.filter(isSummaryRequest)).toHaveLength(1), { timeout: 10_000 });
    run.write('\x03');
    await run.waitFor('Compaction stopped: nothing changed.');
    // Killed while the assistant writes the summary: nothing changed.
    await run.prompt();
    run.line('/compact');
    await vi.waitFor(() => expect(server.requests.filter(isSummaryRequest)).toHaveLength(2), { timeout: 10_000 });
    run.kill('SIGKILL');
    await run.exited;
    const before = await show(id, { home, cwd, env });
    expect([before.summary, contents(before.messages), before.archived]).toEqual([null, all, []]);

    // Killed as the summary arrives, at a few points after it (the last once it is shown as done):
    // the conversation before or after the compaction, whole.
    for (const killAt of [0, 5, 20, 80, 'done'] as const) {
      const again = spawnPty(['--session-id', id], { home, cwd, env });
      await again.prompt();
      const requests = server.requests.length;
      again.line('/compact');
      await vi.waitFor(() => expect(server.requests.length).toBe(requests + 1), { timeout: 10_000 });
      release();
      if (killAt === 'done') await again.waitFor('Summarised 2 earlier messages');
      else await new Promise((resolve) => setTimeout(resolve, killAt));
      again.kill('SIGKILL');
      await again.exited;
      const after = await show(id, { home, cwd, env });
      expect([...after.archived.flatMap((a) => contents(a.messages)), ...contents(after.messages)]).toEqual(all);
      if (after.summary === null && killAt !== 'done') expect([contents(after.messages), after.archived]).toEqual([all, []]);
      else expect([after.summary, contents(after.messages)]).toEqual(['The summary.', ['two', 'Noted.']]);
      if (after.summary !== null) break;
    }
  });
});

/**
 * Stored text is exact; shown text is safe (docs/design.md §6). A message holding terminal control
 * sequences (a screen clear, an OSC 52 clipboard write, a bell) is stored byte-exact and kept
 * exact by `--json`, but every path that shows it to a person shows the sequences as visible,
 * inert characters: the transcript replayed on resume, /load and /fork (rendered as live replies
 * are), `sessions show`, search snippets and listings.
 */
import { describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { runPiped, spawnPty, type RunOptions } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

const CLEAR = '\x1b[2J\x1b[H';
const CLIPBOARD = '\x1b]52;c;ZXZpbA==\x07';
/** What a user typed (a paste can hold anything) and what the assistant answered. */
const TYPED = `fig ${CLEAR}please`;
const REPLY = `Here:\n\n- **bold** fig item ${CLIPBOARD}\n- second\n\nEnd ${CLEAR}done.`;

/** Raw bytes that would act on a terminal: CSI, OSC, BEL. */
const ACTIVE = /\x1b\[2J|\x1b\]52|\x07/;

async function hostileSession(): Promise<{ options: RunOptions; id: string }> {
  const server = await startFakeLlmServer('anthropic', { text: [REPLY] });
  const options: RunOptions = {
    home: tmpHome(),
    cwd: tmpHome('chatkeep-project-'),
    env: { ANTHROPIC_API_KEY: 'sk-test-not-real', ANTHROPIC_BASE_URL: server.origin, CHATKEEP_MAX_RETRIES: '0' },
  };
  const run = await runPiped([], `${TYPED}\n`, options);
  expect(run.code).toBe(0);
  // A pipe gets the reply exactly as the model wrote it: it is data for a script.
  expect(run.stdout).toBe(`${REPLY}\n`);
  const id = /Saved (\S+) \(/.exec(run.stderr)![1]!;
  return { options, id };
}

describe('hostile text in a stored message', () => {
  it('is shown inert as the reply streams on a terminal, rendered or --raw', async () => {
    const server = await startFakeLlmServer('anthropic', { text: [REPLY] });
    for (const args of [[], ['--raw']]) {
      const run = spawnPty(args, { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), env: { ANTHROPIC_API_KEY: 'sk-test-not-real', ANTHROPIC_BASE_URL: server.origin } });
      await run.waitFor('Type a message');
      await run.prompt();
      const from = run.output().length;
      run.line('go');
      await run.waitFor('done.');
      await run.prompt();
      expect(run.screen()).toContain('␛]52;c;ZXZpbA==␇');
      expect(run.output().slice(from)).not.toMatch(ACTIVE);
      expect(await run.quit()).toBe(0);
    }
  });

  it('is stored, shown by --json and exported as JSON byte-exact; the Markdown export holds it inert', async () => {
    const { options, id } = await hostileSession();
    const shown = await runPiped(['sessions', 'show', id, '--json'], '', options);
    const messages = (JSON.parse(shown.stdout) as { messages: { content: string }[] }).messages;
    expect(messages.map((m) => m.content)).toEqual([TYPED, REPLY]);
    // The JSON export keeps it exact too (escaped as JSON escapes it); the Markdown export shows it inert.
    const json = await runPiped(['sessions', 'export', id], '', options);
    expect(json.stdout).toContain(JSON.stringify(REPLY).slice(1, -1));
    expect((JSON.parse(json.stdout) as { session: { messages: { content: string }[] } }).session.messages[1]!.content).toBe(REPLY);
    const md = await runPiped(['sessions', 'export', id, '--format', 'md'], '', options);
    expect(md.stdout).not.toMatch(ACTIVE);
    expect(md.stdout).not.toContain('\x1b');
    expect(md.stdout).toContain('- **bold** fig item ␛]52;c;ZXZpbA==␇\n');
    expect(md.stdout).toContain('fig ␛[2J␛[Hplease');
  });

  it('is shown inert by sessions show and search', async () => {
    const { options, id } = await hostileSession();
    const show = await runPiped(['sessions', 'show', id], '', options);
    expect(show.code).toBe(0);
    expect(show.stdout).not.toMatch(ACTIVE);
    expect(show.stdout).toContain('› fig ␛[2J␛[Hplease');
    expect(show.stdout).toContain('- **bold** fig item ␛]52;c;ZXZpbA==␇');

    const search = await runPiped(['sessions', 'search', 'please'], '', options);
    expect(search.code).toBe(0);
    expect(search.stdout).not.toMatch(ACTIVE);
    expect(search.stdout).toContain('␛[2J␛[Hplease');
  });

  it('is replayed on resume rendered as a live reply, with the sequences visible and inert', async () => {
    const { options, id } = await hostileSession();
    const run = spawnPty(['--session-id', id], options);
    await run.waitFor('Type a message');
    await run.prompt();
    const seen = (await run.visible()).join('\n');
    expect(seen).toContain('› fig ␛[2J␛[Hplease');
    // Rendered as the reply was live: the list drawn, the emphasis applied.
    expect(seen).toContain('• bold fig item ␛]52;c;ZXZpbA==␇');
    expect(seen).toContain('End ␛[2J␛[Hdone.');
    expect(run.output()).toContain('\x1b[1mbold\x1b[22m');
    expect(run.output()).not.toMatch(ACTIVE);
    expect(await run.quit()).toBe(0);
  });

  it('is replayed the same way after /load and /fork', async () => {
    const { options, id } = await hostileSession();
    const run = spawnPty([], options);
    await run.waitFor('Type a message');
    await run.prompt();
    let from = run.screen().length;
    run.line(`/load ${id}`);
    await run.waitFor('End ␛[2J␛[Hdone.', { from });
    await run.prompt();
    from = run.screen().length;
    run.line('/fork');
    await run.waitFor('End ␛[2J␛[Hdone.', { from });
    await run.prompt();
    const seen = (await run.visible()).join('\n');
    expect(seen.split('• bold fig item ␛]52;c;ZXZpbA==␇')).toHaveLength(3);
    expect(run.output()).not.toMatch(ACTIVE);
    expect(await run.quit()).toBe(0);
  });
});

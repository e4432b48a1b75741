import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { runPiped, spawnPty, startAtPrompt } from '../helpers/pty.js';
import { sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** No terminal the test machine runs in may decide what /copy does: only what the test sets. */
const TERMINAL_ENV = { TERM_PROGRAM: '', KITTY_WINDOW_ID: '', WEZTERM_PANE: '', ALACRITTY_WINDOW_ID: '', GHOSTTY_RESOURCES_DIR: '', WT_SESSION: '', TMUX: '', STY: '', CHATKEEP_CLIPBOARD: '' };

interface Shown {
  title: string | null;
  provider: unknown;
  systemPrompt: unknown;
  messages: { role: string; content: string; superseded?: boolean }[];
}

describe('changing course mid-chat', () => {
  it('retries, copies, switches provider, model and system prompt, renames, and keeps it all across a resume', async () => {
    const server = await startFakeLlmServer('openai', [{ text: ['Bonjour.'] }, { text: ['Encore.'] }]);
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    writeFileSync(join(cwd, 'brief.md'), 'Be brief.');
    const env = { ...TERMINAL_ENV, TERM_PROGRAM: 'WezTerm', OPENAI_BASE_URL: server.baseURL, CHATKEEP_MAX_RETRIES: '0' };
    const { run, id } = await startAtPrompt([], { home, cwd, env });
    const dir = sessionDir(home, id)!;

    await run.say('hello', 'Echo: hello (read 1 message)');
    let from = run.screen().length;
    await run.say('/retry', 'Asking again: hello (the earlier answer is kept, marked superseded)\n');
    // The superseded answer is not sent again: echo reads one message, not three.
    await run.waitFor('Echo: hello (read 1 message)', { from });

    from = run.screen().length;
    await run.say('/copy', 'Copied the last reply (28 characters) to the clipboard.', );
    expect(run.output()).toContain(`\x1b]52;c;${Buffer.from('Echo: hello (read 1 message)').toString('base64')}\x07`);

    // Tab completes the command, then the provider name.
    await run.prompt();
    from = run.screen().length;
    run.write('/prov\t');
    await run.waitFor('/provider ', { from });
    run.write('op\t');
    await run.waitFor('/provider openai', { from });
    run.write(' tiny\r');
    await run.waitFor(/Now using openai tiny \(127\.0\.0\.1:\d+\) for the next turns \(recorded in the session\)\./, { from });

    await run.say('/model two words', 'A model name is one word: /model NAME (e.g. /model gpt-4o-mini).');
    await run.say('/model small', /Now using openai small \(127\.0\.0\.1:\d+\) for the next turns/);
    await run.say('/provider nope', 'Unknown provider `nope`: use one of echo, anthropic, openai (e.g. /provider openai).');
    await run.say('/system missing.md', `Cannot read the system prompt \`${join(cwd, 'missing.md')}\`: no such file. Give a readable text file: /system FILE`);
    const sha = createHash('sha256').update('Be brief.').digest('hex');
    await run.say('/system brief.md', `System prompt for the next turns: ${join(cwd, 'brief.md')} (sha256 ${sha.slice(0, 12)}…, recorded in the session).`);

    await run.say('/title Trip to Paris', `Renamed ${id} to "Trip to Paris".`);
    // Renaming journals the title; it writes no snapshot.
    expect(existsSync(join(dir, 'session.json'))).toBe(false);
    expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8')).toContain('"type":"title","payload":{"title":"Trip to Paris","source":"user"}');

    await run.say('in French please', 'Bonjour.');
    expect(await run.quit()).toBe(0);

    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body.model).toBe('small');
    expect((server.requests[0]!.body.messages as { role: string; content: string }[]).map((m) => [m.role, m.content])).toEqual([
      ['system', 'Be brief.'],
      ['user', 'hello'],
      ['assistant', 'Echo: hello (read 1 message)'],
      ['user', 'in French please'],
    ]);

    const json = JSON.parse((await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd })).stdout) as Shown;
    expect(json.title).toBe('Trip to Paris');
    expect(json.provider).toEqual({ name: 'openai', model: 'small', source: 'command' });
    expect(json.systemPrompt).toEqual({ path: join(cwd, 'brief.md'), sha256: sha, source: 'command' });
    expect(json.messages.map((m) => [m.role, m.content, m.superseded ?? false])).toEqual([
      ['user', 'hello', false],
      ['assistant', 'Echo: hello (read 1 message)', true],
      ['assistant', 'Echo: hello (read 1 message)', false],
      ['user', 'in French please', false],
      ['assistant', 'Bonjour.', false],
    ]);
    const text = (await runPiped(['sessions', 'show', id], '', { home, cwd })).stdout;
    expect(text).toContain(`  assistant openai small (set in the chat) · system prompt ${join(cwd, 'brief.md')} (sha256 ${sha.slice(0, 12)}…) (set in the chat)\n`);
    expect(text).toContain('Echo: hello (read 1 message) [superseded by /retry]\n');

    // Resumed without flags: the switched model and the system prompt (read again from its path) carry on.
    const again = spawnPty(['--session-id', id], { home, cwd, env });
    await again.prompt();
    expect(again.screen()).toMatch(/· openai small \(127\.0\.0\.1:\d+\) · autosave/);
    await again.say('once more', 'Encore.');
    expect(await again.quit()).toBe(0);
    const resent = server.requests[1]!.body.messages as { role: string; content: string }[];
    expect(resent[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(resent.filter((m) => m.content === 'Echo: hello (read 1 message)')).toHaveLength(1);
  });

  it('reads the recorded system prompt again on resume, and says when it changed or is gone', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const prompt = join(cwd, 'brief.md');
    writeFileSync(prompt, 'Be brief.');
    const first = await runPiped([], '/system brief.md\nhi\n/quit\n', { home, cwd });
    const id = /Saved (\S+) /.exec(first.stderr)![1]!;

    writeFileSync(prompt, 'Be very brief.');
    const changed = await runPiped(['--session-id', id], '/system\n', { home, cwd });
    expect(changed.stderr).toContain(`The system prompt ${prompt} changed since this session recorded it; the new text is used.\n`);
    const sha = createHash('sha256').update('Be very brief.').digest('hex');
    expect(changed.stdout).toBe(`System prompt: ${prompt} (sha256 ${sha.slice(0, 12)}…) (set in the chat).\n`);

    rmSync(prompt);
    const gone = await runPiped(['--session-id', id], '/system\n', { home, cwd });
    expect(gone.stderr).toContain(`The system prompt this session recorded (${prompt}) cannot be read now; the chat goes on without one. Set one with /system FILE.\n`);
    expect(gone.stdout).toBe('No system prompt. Use one with /system FILE.\n');
    const json = JSON.parse((await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd })).stdout) as Shown;
    expect(json.systemPrompt).toBeNull();
  });

  it('says in one line what cannot be done, and what to do instead', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run } = await startAtPrompt([], { home, cwd, env: { ...TERMINAL_ENV, TERM_PROGRAM: 'Apple_Terminal' } });
    await run.say('/retry', 'Nothing to retry yet: send a message first.');
    await run.say('/copy', 'Nothing to copy yet: no reply in this session.');
    await run.say('hi', 'Echo: hi (read 1 message)');
    await run.say('/retry now', '/retry takes no arguments: it asks your last message again. To ask something else, type it.');
    await run.say(
      '/copy',
      'Cannot copy: this terminal (Apple_Terminal) is not known to accept OSC 52 clipboard writes; if it does, set CHATKEEP_CLIPBOARD=osc52.',
    );
    expect(run.output()).not.toContain('\x1b]52;');
    await run.say('/model gpt-4o', 'echo (offline) has no models: switch assistant first, e.g. /provider openai gpt-4o.');
    await run.say('/provider anthropic', 'ANTHROPIC_API_KEY is not set: export it and start chatkeep again. Still using echo (offline).');
    await run.say('/title', 'Title: "hi". Rename with /title TEXT.');
    await run.say('/help retry', '/retry\n  ask your last message again (the earlier answer is kept, marked superseded)');
    expect(await run.quit()).toBe(0);
  });

  it('works from a script: replies on stdout, notes on stderr, no clipboard without a terminal', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const result = await runPiped([], 'hi\n/retry\n/copy\n/title scripted\n/quit\n', { home, cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Echo: hi (read 1 message)\nEcho: hi (read 1 message)\nRenamed ' + /Saved (\S+) /.exec(result.stderr)![1] + ' to "scripted".\n');
    expect(result.stderr).toContain('Asking again: hi (the earlier answer is kept, marked superseded)\n');
    expect(result.stderr).toContain('Cannot copy: copying needs a terminal, and this chat runs without one.\n');
  });
});

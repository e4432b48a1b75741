import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { phrase, runPiped, spawnPty, startAtPrompt } from '../helpers/pty.js';
import { bannerId, sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('chatting in a terminal', () => {
  it('chats, saves, lists, quits printing the ID, and resumes it by ID prefix', async () => {
    const home = join(tmpHome(), 'data');
    const cwd = tmpHome('chatkeep-project-');
    const run = spawnPty([], { home, cwd });
    const banner = await run.waitFor('Type a message, or /help for commands.');
    const id = bannerId(banner);
    expect(banner).toMatch(new RegExp(`^chatkeep 0\\.1\\.0 · session ${id} · echo \\(offline\\) · autosave every 5 min\\n`));
    expect(id).toMatch(/^session-\d{8}-\d{6}$/);

    await run.say('hello there', 'Echo: hello there (read 1 message)');
    // A line longer than the terminal is broken between words: matched as read, across rows.
    // The path follows on the next row, written once its line is done.
    await run.say('/save first chat', phrase(`Saved ${id} as "first chat" (2 messages) to ${join(sessionDir(home, id)!, 'session.json')}`));
    await run.say('/sessions', new RegExp(`\\* ${id}\\s+less than a minute ago\\s+2 messages · 8 tokens\\s+open\\s+first chat`));
    expect(await run.quit()).toBe(0);
    expect(run.screen()).toContain(`Saved ${id} (2 messages).\nResume with: chatkeep --session-id ${id}\n`);

    const snapshot = readFileSync(join(sessionDir(home, id)!, 'session.json'), 'utf8');
    expect(snapshot).toContain('Echo: hello there (read 1 message)');

    const again = spawnPty(['--session-id', id.slice(0, -2)], { home, cwd });
    const resumed = await again.waitFor(/Resumed session .*\n[\s\S]*Echo: hello there \(read 1 message\)\n/);
    expect(resumed).toContain(`Resumed session ${id} (2 messages, last active less than a minute ago, project ${cwd})`);
    expect(resumed).toContain('› hello there\n');
    await again.say('and again', 'Echo: and again (read 3 messages)');
    await again.prompt();
    again.write('\x04');
    expect(await again.exited).toBe(0);
    expect(again.screen()).toContain(`Saved ${id} (4 messages).`);
  });

  it('switches with /load, refuses the current one, and archives with /reset', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const first = await runPiped([], 'remember me\n/quit\n', { home, cwd });
    const firstId = /Saved (\S+) /.exec(first.stderr)?.[1];
    expect(first.code).toBe(0);

    const { run, id } = await startAtPrompt([], { home, cwd });
    expect(id).not.toBe(firstId);
    await run.say('one', 'Echo: one (read 1 message)');
    await run.say(`/load ${id}`, `Already in session ${id}.`);
    await run.say(`/load ${firstId}`, `Saved ${id} (2 messages). Switched to ${firstId}.`);
    await run.waitFor(`Resumed session ${firstId} (2 messages`);
    await run.say('/reset', `Archived 2 messages inside ${firstId}; the conversation starts afresh.`);
    await run.say('fresh', 'Echo: fresh (read 1 message)');
    await run.prompt();
    run.line('/exit');
    expect(await run.exited).toBe(0);
    expect(run.screen()).toContain(`Resume with: chatkeep --session-id ${firstId}`);

    const shown = await runPiped(['sessions', 'show', firstId!, '--json'], '', { home, cwd });
    const session = JSON.parse(shown.stdout) as { messages: { content: string }[]; archivedMessages: number };
    expect(session.messages.map((m) => m.content)).toEqual(['fresh', 'Echo: fresh (read 1 message)']);
    expect(session.archivedMessages).toBe(2);
    // The session left by /load was saved and closed when the switch happened.
    const left = JSON.parse((await runPiped(['sessions', 'list', '--json'], '', { home, cwd })).stdout) as { id: string; status: string; messageCount: number }[];
    expect(left.find((row) => row.id === id)).toMatchObject({ status: 'closed', messageCount: 2 });
  });

  it('sends a multi-line paste as one message and completes commands with Tab', async () => {
    const { run } = await startAtPrompt([], { home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    run.write('\x1b[200~line one\rline two\x1b[201~');
    run.write('\r');
    // The line in progress holds its last word until the word ends: what is seen is the reply whole.
    await run.waitFor('line two (read 1 message)');
    expect((await run.visible()).join('\n')).toContain('Echo: line one\nline two (read 1 message)');
    const from = run.screen().length;
    await run.prompt();
    run.write('/sess\t');
    await run.waitFor('/sessions ', { from });
    run.write('\r');
    await run.waitFor('2 messages', { from });
    expect(await run.quit()).toBe(0);
  });

  it('clears the line on Ctrl-C and leaves on a second Ctrl-C, with or without text on the line', async () => {
    // With text: the first Ctrl-C clears it (kept as the draft, see drafts.test.ts), the second leaves.
    const { run, id } = await startAtPrompt([], { home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    run.write('half typed');
    await run.waitFor('half typed');
    run.write('\x03');
    await run.waitFor('(To leave, press Ctrl-C again, Ctrl-D, or type /quit.)\n› ');
    expect(run.screen().endsWith('› ')).toBe(true);
    run.write('\x03');
    expect(await run.exited).toBe(0);
    expect(run.screen()).toContain(`Saved ${id} (0 messages).\nResume with: chatkeep --session-id ${id}\n`);

    // At an empty prompt: twice leaves.
    const empty = await startAtPrompt([], { home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    empty.run.write('\x03');
    await empty.run.waitFor('(To leave, press Ctrl-C again, Ctrl-D, or type /quit.)');
    await empty.run.prompt();
    empty.run.write('\x03');
    expect(await empty.run.exited).toBe(0);
    // No message, no draft: nothing is kept, and no way back is printed.
    expect(empty.run.screen()).toContain(`Nothing was kept: no message was sent in ${empty.id}.`);
    expect(empty.run.screen()).not.toContain('Resume with');
  });

  it('holds what is typed during a reply and shows it at the next prompt', async () => {
    const { run } = await startAtPrompt([], { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), env: { CHATKEEP_ECHO_DELAY_MS: '60' } });
    await run.say('one two three four five', 'Echo: one');
    run.line('typed ahead');
    await run.waitFor('Echo: typed ahead (read 3 messages)');
    expect(run.screen()).toContain('Echo: one two three four five (read 1 message)\n› typed ahead\n');
    expect(await run.quit()).toBe(0);
  });
});

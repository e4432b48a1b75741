/** `/export` in a terminal: the live session, journaled messages included, to a file the user names. */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped, startAtPrompt } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('/export', () => {
  it('writes this session as json, md or html, and says where', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd });
    await run.say('hello <b>there</b>', 'Echo: hello <b>there</b> (read 1 message)');

    // Nothing saved yet: the messages are in the journal, and the export has them.
    await run.say('/export md notes.md', `Exported ${id} (2 messages) as md to ${join(cwd, 'notes.md')}`);
    const md = readFileSync(join(cwd, 'notes.md'), 'utf8');
    expect(md).toContain('### You · ');
    // Kept as the Markdown it is, under the speaker's heading.
    expect(md).toMatch(/### You · \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\n\nhello <b>there<\/b>\n\n### Assistant · /);

    await run.say('/export', `Exported ${id} (2 messages) as json to ${join(cwd, `${id}.json`)}`);
    await run.say('/export page.html', `as html to ${join(cwd, 'page.html')}`);
    expect(readFileSync(join(cwd, 'page.html'), 'utf8')).toContain('hello &lt;b&gt;there&lt;/b&gt;');

    // Bad input: one line, nothing written, the chat goes on.
    await run.say('/export pdf', 'Unknown format `pdf`: use json, md, html (/export [json|md|html] [file]). To write a file of that name, say the format too: /export json pdf');
    await run.say('/export json nowhere/x.json', `Cannot write \`nowhere/x.json\`: the directory \`${join(cwd, 'nowhere')}\` does not exist.`);
    expect(existsSync(join(cwd, 'pdf'))).toBe(false);
    await run.say('/help export', '/export [json|md|html] [file]');
    await run.say('still here', 'Echo: still here (read 3 messages)');
    expect(await run.quit()).toBe(0);

    // The archive /export wrote imports elsewhere as the same session.
    const other = tmpHome();
    const imported = await runPiped(['sessions', 'import', join(cwd, `${id}.json`), '--json'], '', { home: other, cwd });
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ id, messageCount: 2 });
  });

  it('refuses a file outside the directory it was started in, and writes nothing', async () => {
    const root = tmpHome('chatkeep-project-');
    const cwd = join(root, 'a', 'b');
    mkdirSync(cwd, { recursive: true });
    const run = await runPiped([], 'hello\n/export md ../../x.md\n/export md kept.md\n', { home: tmpHome(), cwd });
    expect(run.stderr + run.stdout).toContain(`Cannot write \`../../x.md\`: it is outside ${cwd}, and this chat writes only under it. Name a file inside it.`);
    expect(existsSync(join(root, 'x.md'))).toBe(false);
    // The chat went on: the next export, inside, was written.
    expect(readFileSync(join(cwd, 'kept.md'), 'utf8')).toContain('hello');
  });

  it('writes the file asked for without a stored session too (--no-persist): the one way to keep such a chat', async () => {
    const cwd = tmpHome('chatkeep-project-');
    const run = await runPiped(['--no-persist'], 'hello\n/export\n/quit\n', { home: tmpHome(), cwd });
    expect(run.code).toBe(0);
    const file = /^Exported \S+ \(2 messages\) as json to (.+)$/m.exec(run.stdout)?.[1];
    expect(file).toBeDefined();
    expect(existsSync(file!)).toBe(true);
  });
});

/**
 * Redaction changes what the model receives: the chat says so once, the first time a line is
 * redacted, in one line. The echo assistant repeats what it received, so its reply shows it.
 */
import { describe, expect, it } from 'vitest';
import { runPiped, startAtPrompt } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

const KEY = `sk-ant-${'x1Y2z3'.repeat(5)}`;
const TOKEN = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
const NOTE =
  'Replaced what looked like a secret with [REDACTED:anthropic-key]: the assistant and the saved session got the placeholder, not what you typed (--no-redact keeps text as typed).';

describe('the first redacted line', () => {
  it('is explained once, in one dim line, on a terminal', async () => {
    const { run } = await startAtPrompt([], { home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    await run.say('plain words', 'Echo: plain words (read 1 message)');
    await run.say(`my key is ${KEY}`, 'Echo: my key is [REDACTED:anthropic-key] (read 3 messages)');
    await run.say(`and ${TOKEN}`, 'Echo: and [REDACTED:github-token] (read 5 messages)');
    // The note is one line, broken between words at the terminal's width: read with rows joined.
    const flat = (text: string): string => text.replace(/\s+/g, ' ');
    const screen = run.screen();
    expect(flat(screen).split(flat(NOTE))).toHaveLength(2);
    // Right under the typed line, before the reply.
    expect(flat(screen)).toContain(flat(`› my key is ${KEY}\n${NOTE}\n`));
    expect(screen).not.toContain('Replaced what looked like a secret with [REDACTED:github-token]');
    expect(await run.quit()).toBe(0);
  });

  it('goes to stderr when piped; stdout holds only the replies', async () => {
    const result = await runPiped([], `my key is ${KEY}\nagain ${KEY}\n`, { home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Echo: my key is [REDACTED:anthropic-key] (read 1 message)\nEcho: again [REDACTED:anthropic-key] (read 3 messages)\n');
    expect(result.stderr.split(NOTE)).toHaveLength(2);
  });

  it('is not shown with --no-redact, and the model gets the line as typed', async () => {
    const result = await runPiped(['--no-redact'], `my key is ${KEY}\n`, { home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    expect(result.stdout).toBe(`Echo: my key is ${KEY} (read 1 message)\n`);
    expect(result.stderr).not.toContain('Replaced');
  });
});

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/embed-node-repl.mjs', import.meta.url));
const LIBRARY_DOC = fileURLToPath(new URL('../../docs/library.md', import.meta.url));

/**
 * Runs the documented embedding example as `node examples/embed-node-repl.mjs`, typing each line
 * once the output holds what the line before it waits for (its commands are asynchronous, so a
 * person types the next one after seeing the last one's answer).
 */
function runExample(
  args: string[],
  steps: readonly [line: string, until?: string][],
  home: string,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [EXAMPLE, ...args], { cwd, env: { ...process.env, CHATKEEP_HOME: home } });
    let stdout = '';
    let stderr = '';
    let next = 0;
    let waitingFor: string | undefined = 'embed> ';
    const typeWhatIsDue = (): void => {
      while (next < steps.length && (waitingFor === undefined || stdout.includes(waitingFor))) {
        const [line, until] = steps[next++]!;
        const seen = stdout.length;
        child.stdin.write(`${line}\n`);
        waitingFor = until;
        if (until !== undefined && stdout.slice(seen).includes(until)) waitingFor = undefined;
      }
      if (next === steps.length && waitingFor === undefined) child.stdin.end();
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      typeWhatIsDue();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Output lines without the REPL's prompts and echoed values. */
function said(stdout: string): string[] {
  return stdout
    .split('\n')
    .map((line) => line.replace(/^(embed> )+/, ''))
    .filter((line) => line !== '' && !/^\d+$/.test(line) && line !== 'undefined');
}

describe('the node:repl embedding example of docs/library.md', () => {
  it('is printed in the docs as it is in examples/', () => {
    const doc = readFileSync(LIBRARY_DOC, 'utf8');
    expect(doc).toContain(`\`\`\`js\n${readFileSync(EXAMPLE, 'utf8')}\`\`\`\n`);
  });

  it('keeps every line in a session that .save, .sessions and a resume by prefix see, and says so in plain words', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const first = await runExample([], [['1 + 1'], ['const x = 40'], ['x + 2'], ['.save first try', 'Saved'], ['.sessions', 'first try'], ['.exit']], home, cwd);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    const id = /^session (session-\S+) · 0 messages · autosave every 5 min$/m.exec(first.stdout)?.[1];
    expect(id).toBeDefined();
    const file = join(sessionDir(home, id!)!, 'session.json');
    expect(said(first.stdout)).toEqual([
      `session ${id} · 0 messages · autosave every 5 min`,
      `Saved ${id} (3 messages) to ${file}`,
      `* ${id}  3 messages   open        first try`,
      `Saved ${id} (3 messages). Resume with:`,
      `node examples/embed-node-repl.mjs ${id}`,
    ]);
    expect(first.stdout).not.toMatch(/to undefined|\(undefined/);

    const again = await runExample([id!.slice(0, -2)], [['one more'], ['.exit']], home, cwd);
    expect(again.code).toBe(0);
    expect(said(again.stdout)[0]).toBe(`session ${id} · 3 messages · autosave every 5 min`);
    expect(said(again.stdout).at(-2)).toBe(`Saved ${id} (4 messages). Resume with:`);
  });
});

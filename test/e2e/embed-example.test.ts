import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tmpHome } from '../helpers/tmp-home.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/embed-node-repl.mjs', import.meta.url));

/** Runs the README's embedding example with piped input, as `node examples/embed-node-repl.mjs`. */
function runExample(args: string[], input: string, home: string, cwd: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [EXAMPLE, ...args], { cwd, env: { ...process.env, CHATKEEP_HOME: home } });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(input);
  });
}

describe("the README's node:repl embedding example", () => {
  it("keeps every line in a session that .save, .sessions and a resume by prefix see", async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const first = await runExample([], '1 + 1\nconst x = 40\nx + 2\n.save first try\n.sessions\n.exit\n', home, cwd);
    expect(first.code).toBe(0);
    const id = /^session (session-\S+) · 0 messages · autosave every 5 min$/m.exec(first.stdout)?.[1];
    expect(id).toBeDefined();
    expect(first.stdout).toContain(`Saved ${id} (3 messages) to `);
    expect(first.stdout).toMatch(new RegExp(`^(embed> )*\\* ${id}  3 msgs  open\\s+first try$`, 'm'));
    expect(first.stdout).toContain(`Resume with: node examples/embed-node-repl.mjs ${id}`);

    const again = await runExample([id!.slice(0, -2)], '.exit\n', home, cwd);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`session ${id} · 3 messages`);
  });
});

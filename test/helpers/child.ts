import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const repo = resolve(import.meta.dirname, '../..');
let built: string | undefined;
const cleanup: string[] = [];

/** Removes the private build and child scripts (call from `afterAll`). */
export function removeBuilds(): void {
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
  built = undefined;
}

/**
 * Compiles the library (src/index.ts and what it imports) into a private directory, once per
 * test file, so child processes run real compiled code without racing other builds of dist/.
 * Returns the file URL of the compiled index.js.
 */
export function buildLibrary(): string {
  if (built) return built;
  const out = mkdtempSync(join(tmpdir(), 'chatkeep-lib-'));
  cleanup.push(out);
  // Bare imports from the compiled files resolve through this link to the repo's packages.
  symlinkSync(join(repo, 'node_modules'), join(out, 'node_modules'), 'dir');
  // The generated validators, where the package has them beside dist/.
  symlinkSync(join(repo, 'schema'), join(out, 'schema'), 'dir');
  const config = join(out, 'tsconfig.json');
  writeFileSync(
    config,
    JSON.stringify({
      extends: join(repo, 'tsconfig.json'),
      include: [join(repo, 'src/index.ts')],
      compilerOptions: { outDir: join(out, 'dist'), rootDir: repo, declaration: false, incremental: false },
    }),
  );
  const result = spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', config], { encoding: 'utf8' });
  const index = join(out, 'dist/src/index.js');
  if (!existsSync(index)) throw new Error(`library build failed:\n${result.stdout}\n${result.stderr}`);
  built = pathToFileURL(index).href;
  return built;
}

/** A running child process whose stdout lines can be awaited. */
export interface Child {
  proc: ChildProcess;
  lines: string[];
  stderr: () => string;
  /** Resolves with the first stdout line that starts with `prefix`. */
  waitFor(prefix: string, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
}

/** Runs `code` (an ES module; `LIB` is the library URL) in a fresh `node`. */
export function startChild(code: string, env: Record<string, string> = {}): Child {
  const lib = buildLibrary();
  const dir = mkdtempSync(join(tmpdir(), 'chatkeep-child-'));
  cleanup.push(dir);
  const file = join(dir, 'child.mjs');
  writeFileSync(file, `const LIB = ${JSON.stringify(lib)};\n${code}`);
  const proc = spawn(process.execPath, [file], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let err = '';
  const waiters: { prefix: string; resolve: (line: string) => void }[] = [];
  let buffer = '';
  proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      lines.push(line);
      for (const w of waiters.splice(0)) {
        if (line.startsWith(w.prefix)) w.resolve(line);
        else waiters.push(w);
      }
    }
  });
  proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((res) => proc.on('exit', (code) => res(code)));
  return {
    proc,
    lines,
    stderr: () => err,
    exited,
    waitFor(prefix, timeoutMs = 20_000) {
      const seen = lines.find((l) => l.startsWith(prefix));
      if (seen) return Promise.resolve(seen);
      return new Promise((res, rej) => {
        const timer = setTimeout(() => rej(new Error(`timed out waiting for "${prefix}"; stdout: ${lines.join('|')}; stderr: ${err}`)), timeoutMs);
        waiters.push({ prefix, resolve: (line) => (clearTimeout(timer), res(line)) });
        void exited.then((code) => rej(new Error(`child exited (${code}) before "${prefix}"; stdout: ${lines.join('|')}; stderr: ${err}`)));
      });
    },
  };
}

/** Runs a child to completion and returns its stdout lines and exit code. */
export async function runChild(code: string, env: Record<string, string> = {}): Promise<{ code: number | null; lines: string[]; stderr: string }> {
  const child = startChild(code, env);
  const exit = await child.exited;
  return { code: exit, lines: child.lines, stderr: child.stderr() };
}

/**
 * Start to first prompt: the real binary, spawned as a user would start it, timed until it
 * is ready to read a line (its banner's last line), beside the floor `node -e 0`.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/chatkeep.js', import.meta.url));
const READY = 'Type a message';

/** Spawns chatkeep on a pipe and resolves with ms until its ready line, then ends it. */
export function timeToPrompt(home: string, cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [BIN, '--autosave', 'off'], {
      cwd,
      env: { ...process.env, CHATKEEP_HOME: home, NO_COLOR: '1' },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let seen = '';
    let elapsed = -1;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      seen += chunk;
      if (elapsed < 0 && seen.includes(READY)) {
        elapsed = performance.now() - start;
        child.stdin.end('/quit\n');
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (elapsed < 0) reject(new Error(`chatkeep exited ${code} before its prompt: ${seen.trim()}`));
      else resolve(elapsed);
    });
  });
}

/** The floor: a bare Node start and exit. */
export function timeNodeStart(): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - start));
  });
}

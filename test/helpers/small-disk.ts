/** A small filesystem of a test's own (a tmpfs, which needs root, as CI runs); fill-disk.ts fills it. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A directory on a filesystem of its own, `mb` MiB, unmounted when the test finishes. `mode`:
 * 0755 where another user must reach it (a tablespace the server's user writes), else 0700.
 */
export function smallDisk(mb: number, mode: '0700' | '0755' = '0700'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'chatkeep-disk-')));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m,mode=${mode}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    throw new Error(`A full disk is a small tmpfs mounted for the test, which needs root (run the tests as root, as CI does): ${String(err)}`);
  }
  onTestFinished(() => {
    execFileSync('umount', ['-l', dir]); // lazily: a failed test may leave a file open there
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

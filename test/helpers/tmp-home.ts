import { mkdtempSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A fresh, empty directory for one test (a data home, a project cwd, …), removed when the
 * test finishes. The path is canonical (realpath), as the session store records real paths.
 */
export function tmpHome(prefix = 'chatkeep-test-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Debian's `chromium`, for tests that open a page in a real headless browser (the HTML export).
 * Installed when missing and this process can (root with apt-get, as on CI); otherwise the test
 * fails with the command that installs it. Never skipped.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Where Debian's package puts the browser. */
export const CHROMIUM = '/usr/bin/chromium';

const INSTALL = 'apt-get install -y chromium';

/** The browser's path, installing the package first if it is missing. */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const root = process.getuid?.() === 0;
  if (!root || !existsSync('/usr/bin/apt-get')) {
    throw new Error(`This test needs Debian's chromium at ${CHROMIUM}. Install it with: sudo ${INSTALL}`);
  }
  try {
    apt(['install', '-y', 'chromium']);
  } catch {
    // A fresh machine may have no package lists yet.
    apt(['update']);
    apt(['install', '-y', 'chromium']);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`\`${INSTALL}\` ran but ${CHROMIUM} is still missing.`);
  return CHROMIUM;
}

function apt(args: string[]): void {
  try {
    // Another test run may be installing at the same moment: wait for dpkg's lock instead of failing.
    execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', ...args], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: 'pipe',
      timeout: 15 * 60_000,
    });
  } catch (err) {
    const output = (err as { stderr?: Buffer }).stderr?.toString().trim().split('\n').slice(-3).join(' ') ?? '';
    throw new Error(`apt-get ${args.join(' ')} failed (${output}). Install chromium with: ${INSTALL}`);
  }
}

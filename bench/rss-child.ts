/** Child of the memory benchmark: prints its peak RSS in MB after one resume (or one parse). */
import { readFile } from 'node:fs/promises';

/**
 * This process's own peak: VmHWM resets at exec, while getrusage's maxRSS keeps the parent's
 * high-water mark across fork and exec on Linux (the benchmark's parent is larger than us).
 */
async function peakRssKb(): Promise<number> {
  try {
    const status = await readFile('/proc/self/status', 'utf8');
    const match = /^VmHWM:\s+(\d+) kB/m.exec(status);
    if (match) return Number(match[1]);
  } catch {
    // not Linux: fall back to getrusage
  }
  return process.resourceUsage().maxRSS;
}
const [mode, home, cwd, id, snapshotPath] = process.argv.slice(2);
if (mode === 'resume') {
  // Loaded here only: the parse floor must not pay for the library.
  const { openSessions } = await import('../src/index.js');
  const manager = await openSessions({ home, cwd });
  const session = await manager.resume(id);
  if (session.messages.length === 0) throw new Error('resumed nothing');
  const peak = await peakRssKb();
  // Closed, so the next child resumes the same clean session, not one left by a dead process.
  await session.close();
  process.stdout.write(`${peak / 1024}\n`);
} else {
  JSON.parse(await readFile(snapshotPath, 'utf8'));
  process.stdout.write(`${(await peakRssKb()) / 1024}\n`);
}
process.exit(0);

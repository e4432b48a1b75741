/** Child of the memory benchmark: prints its peak RSS in MB after one resume (or one parse). */
import { readFile } from 'node:fs/promises';
import { peakRssMb } from './peak-rss.js';

const [mode, home, cwd, id, snapshotPath] = process.argv.slice(2);
if (mode === 'resume') {
  // Loaded here only: the parse floor must not pay for the library.
  const { openSessions } = await import('../src/index.js');
  const manager = await openSessions({ home, cwd });
  const session = await manager.resume(id);
  if (session.messages.length === 0) throw new Error('resumed nothing');
  const peak = peakRssMb();
  // Closed, so the next child resumes the same clean session, not one left by a dead process.
  await session.close();
  process.stdout.write(`${peak}\n`);
} else {
  JSON.parse(await readFile(snapshotPath, 'utf8'));
  process.stdout.write(`${peakRssMb()}\n`);
}
process.exit(0);

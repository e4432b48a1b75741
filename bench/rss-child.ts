/** Child of the memory benchmark: prints its peak RSS in MB after one resume (or one parse). */
import { readFile } from 'node:fs/promises';
import { openSessions } from '../src/index.js';

const [mode, home, cwd, id, snapshotPath] = process.argv.slice(2);
if (mode === 'resume') {
  const manager = await openSessions({ home, cwd });
  const session = await manager.resume(id);
  if (session.messages.length === 0) throw new Error('resumed nothing');
} else {
  JSON.parse(await readFile(snapshotPath, 'utf8'));
}
process.stdout.write(`${process.resourceUsage().maxRSS / 1024}\n`);
process.exit(0);

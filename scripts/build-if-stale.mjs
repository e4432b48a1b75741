// `npm start` on a fresh clone: builds dist/ when it is missing or older than a source file, so
// that `npm install && npm start` works without an install script (a `prepare` script would
// make npm warn every program that installs chatkeep: docs/design.md §21). Quick when up to date.
import { execSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = `${root}dist/bundle/cli.cjs`;

/** The newest modification time under `dir` (0 when it does not exist). */
function newest(dir) {
  let latest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return 0;
  }
  for (const e of entries) if (e.isFile()) latest = Math.max(latest, statSync(`${e.parentPath ?? e.path}/${e.name}`).mtimeMs);
  return latest;
}

let builtAt = 0;
try {
  builtAt = statSync(built).mtimeMs;
} catch {
  // not built yet
}
const sources = Math.max(newest(`${root}src`), newest(`${root}scripts`), statSync(`${root}package.json`).mtimeMs, statSync(`${root}tsconfig.build.json`).mtimeMs);
if (builtAt < sources) {
  process.stderr.write(builtAt === 0 ? 'Building chatkeep (first start)…\n' : 'Sources changed: rebuilding chatkeep…\n');
  execSync('npm run build', { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}

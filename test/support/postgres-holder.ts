/**
 * Another process holding a session's lock on the PostgreSQL store: a child `node` running the
 * built store (`dist/`), so that a test can kill it with SIGKILL as a crash would.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const storeModule = new URL('../../dist/src/store/postgres/store.js', import.meta.url).href;

export interface ChildHolder {
  pid: number;
  kill9(): Promise<void>;
}

const SCRIPT = `
const [url, id, cwd, module] = process.argv.slice(1);
const { openPostgresStore } = await import(module);
const store = await openPostgresStore(url, { cwd });
await store.lock(id, () => { console.log('lost'); });
console.log('held');
setInterval(() => {}, 1 << 30);
`;

/** Resolves once the child holds the lock (rejects with what it printed if it could not). */
export function holdInChild(url: string, id: string, cwd: string): Promise<ChildHolder> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, url, id, cwd, storeModule], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('held')) {
        resolve({
          pid: child.pid!,
          kill9: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGKILL');
            }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`The lock holder exited (${code}) before holding the lock:\n${output}`)));
  });
}

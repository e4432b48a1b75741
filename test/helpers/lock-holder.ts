/**
 * Another process holding a session's lock: a child `node` running the built store (`dist/`),
 * so that a test can kill it with SIGKILL as a crash would.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const built = (path: string): string => new URL(`../../dist/src/store/${path}`, import.meta.url).href;

export interface ChildHolder {
  pid: number;
  kill9(): Promise<void>;
}

/** How the child opens each store (argv: the store's module, where, the session, the cwd). */
const OPEN = {
  postgres: 'const store = await (await import(module)).openPostgresStore(where, { interpreter, cwd });',
  file: `const store = await (await import(module)).openFileStore({ interpreter, home: where, cwd, now: () => new Date(), staleMs: 20000, redact: (t) => t });
    await store.locate(id);`,
};
const INTERPRETER = new URL('../../dist/src/session/runtime/interpreter.js', import.meta.url).href;
const MODULE = { postgres: built('postgres/store.js'), file: built('file/file-store.js') };

const script = (kind: keyof typeof OPEN): string => `
const [module, where, id, cwd, interpreterModule] = process.argv.slice(1);
const { interpreter } = await import(interpreterModule);
${OPEN[kind]}
await store.lock(id, () => { console.log('lost'); });
console.log('held');
setInterval(() => {}, 1 << 30);
`;

/**
 * Resolves once the child holds the lock of `id` (rejects with what it printed if it could not);
 * `where`: the store's URL, or the file store's data directory.
 */
export function holdInChild(kind: keyof typeof OPEN, where: string, id: string, cwd: string): Promise<ChildHolder> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script(kind), MODULE[kind], where, id, cwd, INTERPRETER], {
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

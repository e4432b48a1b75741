/**
 * A full disk, injected: a `--import` hook makes every write under the data home fail with
 * ENOSPC once a byte budget is spent (a partial write first, as a real full disk does). The
 * REPL must say so in one clear line, exit with code 1 if it could not save, and lose nothing
 * that was already durable; the session must load cleanly once space is back.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSessions } from '../src/index.js';
import type { Message } from '../src/index.js';
import { writeScript } from './children.js';
import type { Tally } from './part.js';
import { freshDir, runPiped, spawnPiped } from './proc.js';
import type { Random } from './random.js';

const HOOK = `
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const under = process.env.TORTURE_ENOSPC_UNDER;
let left = Number(process.env.TORTURE_ENOSPC_AFTER);
const fsp = fs.promises;
const paths = new WeakMap();
const counts = (path) => typeof path === 'string' && path.startsWith(under);
const enospc = (syscall) => Object.assign(new Error('ENOSPC: no space left on device, ' + syscall), { code: 'ENOSPC', errno: -28, syscall });
const size = (data, encoding) => (typeof data === 'string' ? Buffer.byteLength(data, encoding) : data.byteLength);
/** Bytes of a write of n that fit. */
const take = (n) => { const ok = Math.min(n, Math.max(0, left)); left -= ok; return ok; };
const open = fsp.open;
const probe = await open(process.execPath, 'r');
const FileHandle = Object.getPrototypeOf(probe);
await probe.close();
const fdPaths = new Map();
fsp.open = async function (path, ...rest) {
  const h = await open.call(this, path, ...rest);
  paths.set(h, String(path));
  fdPaths.set(h.fd, String(path));
  return h;
};
const close = FileHandle.close;
FileHandle.close = function (...args) { fdPaths.delete(this.fd); return close.apply(this, args); };
// The journal appends with writeSync on its handle's fd: a short write, then ENOSPC.
const writeSync = fs.writeSync;
fs.writeSync = function (fd, data, a, b, c) {
  if (!counts(fdPaths.get(fd)) || typeof data === 'string') return writeSync.call(this, fd, data, a, b, c);
  const offset = a ?? 0;
  const length = b ?? data.byteLength - offset;
  const ok = take(length);
  if (ok === length) return writeSync.call(this, fd, data, a, b, c);
  if (ok > 0) return writeSync.call(this, fd, data, offset, ok, c);
  throw enospc('write');
};
const write = FileHandle.write;
FileHandle.write = async function (data, a, b, c) {
  if (!counts(paths.get(this))) return write.call(this, data, a, b, c);
  const offset = typeof data === 'string' ? 0 : (a ?? 0);
  const length = typeof data === 'string' ? size(data) : (b ?? data.byteLength - offset);
  const ok = take(length);
  if (ok === length) return write.call(this, data, a, b, c);
  const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (ok > 0) await write.call(this, bytes, offset, ok, typeof data === 'string' ? a : c);
  throw enospc('write');
};
for (const name of ['writeFile', 'appendFile']) {
  const original = FileHandle[name];
  FileHandle[name] = async function (data, options) {
    if (!counts(paths.get(this))) return original.call(this, data, options);
    const n = size(data, typeof options === 'string' ? options : options?.encoding);
    const ok = take(n);
    if (ok === n) return original.call(this, data, options);
    if (ok > 0) await original.call(this, Buffer.from(typeof data === 'string' ? Buffer.from(data) : data).subarray(0, ok));
    throw enospc('write');
  };
  const top = fsp[name];
  fsp[name] = async function (path, data, options) {
    if (!counts(String(path))) return top.call(this, path, data, options);
    const n = size(data, typeof options === 'string' ? options : options?.encoding);
    const ok = take(n);
    if (ok === n) return top.call(this, path, data, options);
    if (ok > 0) await top.call(this, path, Buffer.from(typeof data === 'string' ? Buffer.from(data) : data).subarray(0, ok), options);
    throw enospc('write');
  };
}
syncBuiltinESMExports();
`;

/** Where a full-disk run keeps its data, and how its disk fills and empties. */
interface Disk {
  kind: string;
  home: string;
  /** Node flags and environment for the REPL (the injector, for the injected kind). */
  spawn: { nodeArgs?: string[]; env?: Record<string, string> };
  /** Leaves `budget` bytes free (after the session is seeded). */
  fill(budget: number): void;
  /** Space is back. */
  release(): void;
  /** Removes the disk (unmounts a tmpfs). */
  dispose(): void;
}

function injectedDisk(root: string, hook: string): Disk {
  const home = freshDir(root, 'full-home-');
  const env: Record<string, string> = { TORTURE_ENOSPC_UNDER: home };
  return {
    kind: 'injected ENOSPC',
    home,
    spawn: { nodeArgs: ['--import', hook], env },
    fill: (budget) => (env.TORTURE_ENOSPC_AFTER = String(budget)),
    release: () => undefined,
    dispose: () => undefined,
  };
}

/** A real, tiny tmpfs (root only): the kernel's own ENOSPC, for every kind of write. */
function tmpfsDisk(root: string): Disk | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const mount = freshDir(root, 'tmpfs-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'tmpfs', mount], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  const home = join(mount, 'home');
  const filler = join(mount, 'filler');
  return {
    kind: 'tmpfs',
    home,
    spawn: {},
    fill: (budget) => {
      const { bavail, bsize } = statfsSync(mount);
      writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - budget)));
    },
    release: () => rmSync(filler, { force: true }),
    // Lazily, so a process still holding a file there cannot make the unmount fail.
    dispose: () => execFileSync('umount', ['-l', mount], { stdio: 'ignore' }),
  };
}

/**
 * Runs `runs` REPLs on an injected ENOSPC, each with another byte budget, plus (as root) a
 * few on a real 1 MB tmpfs; counts unclear errors, wrong exits and durable messages lost.
 */
export async function fullDisk(root: string, runs: number, rng: Random, tally: Tally, tmpfsRuns = 0): Promise<void> {
  const hook = writeScript(root, 'enospc-hook', HOOK);
  for (let i = 0; i < runs + tmpfsRuns; i++) {
    const disk = i < runs ? injectedDisk(root, hook) : tmpfsDisk(root);
    if (!disk) break;
    try {
      // tmpfs hands out whole 4 KiB pages: a few files take several of them.
      const budget = i === 0 ? 0 : disk.kind === 'tmpfs' ? rng.int(6, 40) * 4096 : rng.int(0, 12_000);
      await oneRun(root, i, disk, budget, rng, tally);
    } finally {
      disk.dispose();
    }
  }
}

async function oneRun(root: string, i: number, disk: Disk, budget: number, rng: Random, tally: Tally): Promise<void> {
  tally.add(disk.kind === 'tmpfs' ? 'tmpfsRuns' : 'fullDiskRuns');
  const home = disk.home;
  const cwd = freshDir(root, 'full-project-');
  const manager = await openSessions({ home, cwd });
  const before = await manager.create();
  await before.append({ role: 'user', content: `saved before the disk filled ${i}` });
  await before.save();
  await before.close();
  disk.fill(budget);
  const proc = spawnPiped(['--session-id', before.id, '--autosave', rng.chance(0.5) ? '1s' : 'off'], {
    home,
    cwd,
    ...(disk.spawn.nodeArgs ? { nodeArgs: disk.spawn.nodeArgs } : {}),
    env: { ...disk.spawn.env, CHATKEEP_ECHO_DELAY_MS: '1' },
  });
  const acknowledged: string[] = [];
  let failures = 0;
  try {
    await proc.waitStderr('Type a message', { timeout: 20_000 });
    for (let n = 0; n < 40 && failures < 3; n++) {
      const text = `message ${n} of run ${i} ${'padding '.repeat(rng.int(5, 60))}end`;
      const out = proc.stdout().length;
      const err = proc.stderr().length;
      proc.write(`${text}\n`);
      const ok = proc.waitStdout(`Echo: ${text} (read `, { from: out }).then(() => proc.waitStdout(/messages\)\n/, { from: out }));
      const bad = proc.waitStderr(/\n/, { from: err });
      const outcome = await Promise.race([ok.then(() => 'ok'), bad.then(() => 'error')]);
      ok.catch(() => undefined);
      bad.catch(() => undefined);
      if (outcome === 'ok') acknowledged.push(text);
      else {
        failures++;
        // Let the rest of the turn (a partial reply) finish before the next line.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    proc.write('/quit\n');
  } catch {
    // Start-up itself ran out of space: judged by its exit below.
  }
  const timer = setTimeout(() => proc.kill(), 30_000);
  const code = await proc.closed;
  clearTimeout(timer);
  const errors = proc.stderr().split('\n').filter((line) => /ENOSPC|no space|space left|[Ff]ailed|[Cc]ould not|[Cc]annot/.test(line));
  if (budget < 100_000 && errors.length === 0) tally.fail('unclearErrors', `${disk.kind} run ${i} (budget ${budget}): nothing said about the full disk: ${proc.stderr().slice(-400)}`);
  for (const line of errors) {
    if (/This is a bug|please report|unexpected failure/i.test(line) || !/no space|ENOSPC/i.test(line)) {
      tally.fail('unclearErrors', `${disk.kind} run ${i} (budget ${budget}): ${line}`);
    }
  }
  if (/\n\s+at /.test(proc.stderr())) tally.fail('unclearErrors', `${disk.kind} run ${i}: a stack trace: ${proc.stderr().slice(-400)}`);
  tally.notes.push(`${disk.kind} run ${i}: ${budget} bytes free, ${acknowledged.length} replies shown, exit ${code}, said: ${errors[0] ?? '(nothing)'}`);
  if (code !== 1) tally.fail('wrongExitCodes', `${disk.kind} run ${i} (budget ${budget}): exit ${code}: ${proc.stderr().slice(-300)}`);

  // Space is back: everything durable is there and the session loads without damage.
  disk.release();
  const resumed = await runPiped(['--session-id', before.id, '--autosave', 'off'], '/quit\n', { home, cwd });
  if (resumed.code !== 0) tally.fail('durableLost', `${disk.kind} run ${i}: does not resume once space is back (exit ${resumed.code}): ${resumed.stderr.slice(-300)}`);
  if (/damaged/i.test(resumed.stderr)) tally.fail('durableLost', `${disk.kind} run ${i}: the full disk left damage: ${resumed.stderr.slice(-300)}`);
  let messages: Message[] = [];
  try {
    messages = [...(await manager.read(before.id)).messages];
  } catch (err) {
    tally.fail('durableLost', `${disk.kind} run ${i}: unreadable: ${String(err)}`);
  }
  const contents = new Set(messages.map((m) => m.content));
  tally.add('fullDiskMessagesAcknowledged', acknowledged.length + 1);
  for (const text of [`saved before the disk filled ${i}`, ...acknowledged]) {
    if (!contents.has(text)) tally.fail('durableLost', `${disk.kind} run ${i} (budget ${budget}): ${text.slice(0, 40)} missing`);
  }
}


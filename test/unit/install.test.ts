/**
 * A fresh machine installs with nothing but Node and the registry: no compiler, no download of
 * Node's headers, no engine warning. A native module built at install (node-gyp) needs python3,
 * make, g++ and Node's headers from the internet, and when it fails npm removes node_modules
 * whole; a dependency that wants a newer Node than the README names warns on every install.
 * `.ci/run` installs for real with an empty cache and no headers; this keeps the lockfile so.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

interface LockEntry {
  version?: string;
  hasInstallScript?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  engines?: { node?: string } | string[];
}

interface Manifest {
  scripts?: Record<string, string>;
  gypfile?: boolean;
  allowScripts?: Record<string, boolean>;
}

const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;

/** A platform list as npm reads it: names allowed, `!name` refused. */
const admits = (list: string[] | undefined, value: string): boolean =>
  !list || (list.includes(value) || (list.some((v) => v.startsWith('!')) && !list.includes(`!${value}`)));

/** The lockfile's packages that npm installs on this machine (optional ones for another platform are skipped). */
const installedHere = Object.entries(lock.packages).filter(
  ([path, entry]) => path !== '' && admits(entry.os, process.platform) && admits(entry.cpu, process.arch),
);

const nameOf = (path: string): string => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** What compiles at install: node-gyp (npm runs it for a binding.gyp) and the prebuilt-or-compile helpers. */
const COMPILES = /node-gyp|prebuild-install|node-pre-gyp|cmake-js|\bgyp\b/;

describe('a fresh install', () => {
  it('builds nothing native: no package installed here has a binding.gyp or an install script that compiles', () => {
    const compiling: string[] = [];
    for (const [path, entry] of installedHere) {
      if (!entry.hasInstallScript) continue;
      const dir = join(root, path);
      const own = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
      const scripts = ['preinstall', 'install', 'postinstall'].map((s) => own.scripts?.[s] ?? '').join(' ');
      if (existsSync(join(dir, 'binding.gyp')) || own.gypfile === true || COMPILES.test(scripts)) {
        compiling.push(`${nameOf(path)}@${entry.version ?? '?'}`);
      }
    }
    expect(compiling).toEqual([]);
  });

  it('lets only scripts that compile nothing run (allowScripts)', () => {
    const allowed = Object.keys(manifest.allowScripts ?? {});
    expect(allowed).not.toContain('node-pty');
    for (const name of allowed) {
      const entry = installedHere.find(([path]) => nameOf(path) === name);
      if (!entry) continue; // another platform's package
      expect(existsSync(join(root, entry[0], 'binding.gyp')), name).toBe(false);
    }
  });

  it('names every install script installed here in allowScripts, so npm 11 warns of none left unreviewed', () => {
    const unreviewed = installedHere
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => nameOf(path))
      .filter((name) => !(name in (manifest.allowScripts ?? {})));
    expect(unreviewed).toEqual([]);
  });

  it('the pseudo-terminal the tests drive comes prebuilt for this platform', async () => {
    const pty = await import('@lydell/node-pty');
    const term = pty.spawn(process.execPath, ['-e', 'process.stdout.write("ready")'], { cols: 40, rows: 5 });
    const seen = await new Promise<string>((done) => {
      let out = '';
      term.onData((data) => (out += data));
      term.onExit(() => done(out));
    });
    expect(seen).toContain('ready');
  });

  it('warns of no engine: every package supports the Node running it (CI runs the Node the README names)', () => {
    // npm reads each package's engines from the lockfile: a dry run says EBADENGINE without downloading.
    const dir = mkdtempSync(join(tmpdir(), 'chatkeep-install-'));
    try {
      copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
      copyFileSync(join(root, 'package-lock.json'), join(dir, 'package-lock.json'));
      const run = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: dir,
        encoding: 'utf8',
        shell: process.platform === 'win32',
      });
      expect(run.stdout).toMatch(/added \d+ packages/);
      const warned = [...run.stderr.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1]);
      expect(warned).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

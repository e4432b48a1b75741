/**
 * How to run chatkeep again from where it was started, so that every command it prints
 * (`Resume with: …`, `See … --help`, `List sessions with: …`) runs as printed. `chatkeep` is
 * printed only when that name on PATH is this program; after `npm start` it is
 * `npm start -- …`; otherwise `node /path/to/bin/chatkeep.js …`.
 */
import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { shellQuote } from './quote.js';

/** What the process knows about how it was started (made by the CLI, which hands it on in its host name). */
export interface Invocation {
  /** The launcher as started (`process.argv[1]`). */
  program: string;
  /** The node binary running it (`process.execPath`). */
  node: string;
  env: Record<string, string | undefined>;
  /** `--home DIR` when given as a flag (absolute): a printed command needs it to find the same sessions. */
  home?: string;
  /** `--store URL` when given as a flag (it holds no password): likewise. */
  store?: string;
}

/** Where each invocation's program was found on PATH: looked up once, on first use. */
const prefixes = new WeakMap<Invocation, string>();

/**
 * The one place a chatkeep command line is written for the user to run: `args` after the
 * program, in the form that runs where it is printed. The PATH is looked at on first use only
 * (exit lines and errors), never on the way to the first prompt. `how` is read at each call:
 * the CLI adds `home` and `store` to it as it learns them.
 */
export function chatkeepCommand(how: Invocation, args: readonly string[]): string {
  let prefix = prefixes.get(how);
  if (prefix === undefined) prefixes.set(how, (prefix = programPrefix(how)));
  const home = how.home !== undefined ? ['--home', how.home] : [];
  const store = how.store !== undefined ? ['--store', how.store] : [];
  return [prefix, ...[...home, ...store, ...args].map(shellQuote)].join(' ');
}

function programPrefix(how: Invocation): string {
  const program = realpathOr(how.program);
  if (onPath('chatkeep', how.env, program)) return 'chatkeep';
  const root = dirname(dirname(program));
  const npmPackage = how.env.npm_package_json;
  if (how.env.npm_lifecycle_event === 'start' && npmPackage !== undefined && realpathOr(npmPackage) === join(root, 'package.json')) {
    return 'npm start --';
  }
  const node = onPath('node', how.env, realpathOr(how.node)) ? 'node' : shellQuote(how.node);
  return `${node} ${shellQuote(program)}`;
}

/**
 * True when the first executable `name` on PATH is `target`: the same file once links are
 * resolved (`npm link`, `npm install -g`), or a small wrapper script that names it (the shims
 * pnpm and yarn write).
 */
function onPath(name: string, env: Record<string, string | undefined>, target: string): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (!statSync(candidate).isFile()) continue;
    } catch {
      continue;
    }
    // The shell runs the first one found: it either is this program or it is not.
    if (realpathOr(candidate) === target) return true;
    try {
      return statSync(candidate).size < 4096 && readFileSync(candidate, 'utf8').includes(target);
    } catch {
      return false;
    }
  }
  return false;
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}


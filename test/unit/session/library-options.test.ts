/**
 * What a program embedding chatkeep gets for a wrong option, a missing optional package and its
 * own program name in the commands errors suggest (docs/design.md §17).
 */
import { describe, expect, it } from 'vitest';
import { BadOptionError, ChatkeepError, MissingPackageError, UnknownSessionError, UserError } from '../../../src/session/api/errors.js';
import { createRedactor, openSessions } from '../../../src/index.js';
import { importRequired } from '../../../src/session/runtime/optional-package.js';
import { tmpHome } from '../../helpers/tmp-home.js';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { layout } from '../../../src/store/file/layout.js';

/** What `run` rejects or throws with. */
async function failure(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('it did not fail');
}

describe('openSessions options', () => {
  it('refuses a missing home with a typed error, not node:path\'s TypeError', async () => {
    const err = await failure(() => openSessions({ home: undefined as never, cwd: tmpHome() }));
    expect(err).toBeInstanceOf(BadOptionError);
    expect(err).toBeInstanceOf(UserError);
    expect(err).toMatchObject({ code: 'E_BAD_OPTION', exitCode: 2, call: 'openSessions', option: 'home' });
    expect((err as Error).message).toBe('openSessions: `home` takes a non-empty string, not undefined.');
  });

  it('names each bad option and what it takes', async () => {
    const home = tmpHome();
    const cases: [Record<string, unknown>, string][] = [
      [{ home, cwd: '' }, 'openSessions: `cwd` takes a non-empty string, not "".'],
      [{ home, cwd: home, lockStaleMs: 500 }, 'openSessions: `lockStaleMs` takes a whole number ≥ 2000, not 500.'],
      [{ home, cwd: home, redact: 'no' }, 'openSessions: `redact` takes true or false, not "no".'],
      [{ home, cwd: home, env: { KEY: 1 } }, 'openSessions: `env` takes an object of string values, not an object.'],
      [{ home, cwd: home, now: new Date() }, 'openSessions: `now` takes a function, not an invalid Date.'],
      [{ home, cwd: home, homeDir: home }, 'openSessions: there is no option `homeDir`; the options are home, cwd, redact, env, toolVersion, now, lockStaleMs, store, persist.'],
    ];
    for (const [options, message] of cases) {
      const err = await failure(() => openSessions(options as never));
      expect(err, message).toBeInstanceOf(BadOptionError);
      expect((err as Error).message).toBe(message);
    }
    expect((await failure(() => openSessions(undefined as never)) as Error).message).toMatch(/^openSessions: takes an object of options \(home, cwd, /);
    expect(() => createRedactor({ env: 'HOME' } as never)).toThrow(BadOptionError);
  });

  it('leaves nothing on disk when it refuses', async () => {
    const home = `${tmpHome()}/data`;
    await failure(() => openSessions({ home, cwd: home, persist: 'false' as never }));
    const { existsSync } = await import('node:fs');
    expect(existsSync(home)).toBe(false);
  });
});

describe('persist: false', () => {
  it('offers the input history typed before, read when first asked for: an unreadable one fails only that read', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const kept = await openSessions({ home, cwd });
    await kept.history.append('typed before');
    await kept.close();
    const history = join(layout.project(home, kept.project.key), 'history');
    expect((await (await openSessions({ home, cwd, persist: false })).history.load())).toEqual(['typed before']);

    rmSync(history);
    mkdirSync(history);
    const unsaved = await openSessions({ home, cwd, persist: false });
    await expect(unsaved.history.load()).rejects.toMatchObject({ code: 'EISDIR' });
    const s = await unsaved.create();
    await s.append({ role: 'user', content: 'still chats' });
    expect(s.messages.map((m) => m.content)).toEqual(['still chats']);
  });
});

describe('errors as data', () => {
  it("say what went wrong in no program's words, and what to do as data in every form a host may offer", async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: home });
    const err = await failure(() => sessions.resume('no-such-session'));
    expect(err).toBeInstanceOf(UnknownSessionError);
    expect((err as Error).message).toBe('No session `no-such-session`.');
    expect((err as ChatkeepError).advice).toEqual({
      to: 'List sessions with:',
      run: ['sessions', 'list', '--all'],
      slash: { name: 'sessions', args: ['--all'] },
      call: 'sessions.list({ all: true })',
    });
    // Every refusal of the manager, as made: nothing rewrites it on the way out.
    const trash = (await failure(() => sessions.trash('no-such-session'))) as ChatkeepError;
    expect(trash.message).toBe('No session `no-such-session`.');
  });

  it('commandName is gone (a host words the advice itself): passing it is refused', async () => {
    const home = tmpHome();
    const err = await failure(() => openSessions({ home, cwd: home, commandName: 'myagent' } as never));
    expect(err).toBeInstanceOf(BadOptionError);
    expect((err as Error).message).toMatch(/^openSessions: /);
  });
});

describe('optional packages', () => {
  it('a missing one is a typed error that says what needs it and how to install it', async () => {
    const name = 'chatkeep-no-such-package';
    const err = await failure(() => importRequired(name, 'A PostgreSQL store', () => import(name)));
    expect(err).toBeInstanceOf(MissingPackageError);
    expect(err).toMatchObject({ code: 'E_MISSING_PACKAGE', exitCode: 2 });
    expect((err as Error).message).toBe('A PostgreSQL store needs the package `chatkeep-no-such-package`, which is not installed: npm install chatkeep-no-such-package');
  });
});

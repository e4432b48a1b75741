import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import type { SaveResult } from '../../../src/index.js';
import { AutosaveSpecError, openSessions, parseAutosaveSpec, startAutosave } from '../../../src/index.js';
import { atomicWriteHooks } from '../../../src/store/file/atomic-write.js';
import { autosaveStarted } from '../../../src/session/runtime/autosave.js';

afterEach(() => {
  vi.useRealTimers();
  delete atomicWriteHooks.beforeRename;
});

const HINT = 'Use off, a duration such as 30s or 5m, or a cron expression such as "*/5 * * * *".';

describe('parseAutosaveSpec', () => {
  it.each([
    ['off', { kind: 'off', description: 'off' }],
    ['OFF', { kind: 'off', description: 'off' }],
    ['30s', { kind: 'cron', expression: '*/30 * * * * *', description: 'every 30 s' }],
    ['1s', { kind: 'cron', expression: '* * * * * *', description: 'every 1 s' }],
    ['5m', { kind: 'cron', expression: '0 */5 * * * *', description: 'every 5 min' }],
    ['1m', { kind: 'cron', expression: '0 * * * * *', description: 'every 1 min' }],
    ['120s', { kind: 'cron', expression: '0 */2 * * * *', description: 'every 2 min' }],
    ['2h', { kind: 'cron', expression: '0 0 */2 * * *', description: 'every 2 h' }],
    ['60m', { kind: 'cron', expression: '0 0 * * * *', description: 'every 1 h' }],
    ['*/5 * * * *', { kind: 'cron', expression: '*/5 * * * *', description: 'every 5 min' }],
    ['*/10 * * * * *', { kind: 'cron', expression: '*/10 * * * * *', description: 'every 10 s' }],
    ['0 9 * * 1-5', { kind: 'cron', expression: '0 9 * * 1-5', description: 'cron 0 9 * * 1-5' }],
  ])('%s', (spec, expected) => {
    expect(parseAutosaveSpec(spec)).toEqual(expected);
  });

  it.each([
    ['', 'it is empty'],
    ['7m', '7m does not divide an hour evenly (try 6m)'],
    ['90s', '90s does not divide a minute evenly (try 2m)'],
    ['45s', '45s does not divide a minute evenly (try 30s)'],
    ['25h', '25h does not divide a day evenly (try 24h)'],
    ['0s', 'a duration must be at least 1'],
    ['0 0 31 2 *', 'it never fires'],
    ['* * *', 'a cron expression has 5 or 6 fields, this has 3'],
    ['soon', 'a cron expression has 5 or 6 fields, this has 1'],
  ])('refuses %j', (spec, reason) => {
    let err: unknown;
    try {
      parseAutosaveSpec(spec);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AutosaveSpecError);
    expect((err as AutosaveSpecError).exitCode).toBe(2);
    expect((err as Error).message).toBe(`Bad autosave schedule \`${spec}\`: ${reason}. ${HINT}`);
  });

  it('refuses an invalid cron field', () => {
    expect(() => parseAutosaveSpec('61 * * * *')).toThrow(/^Bad autosave schedule `61 \* \* \* \*`: not a valid cron expression/);
  });
});

describe('startAutosave', () => {
  it('a tick writes a snapshot only when something changed', async () => {
    const home = tmpHome();
    // A long stale time keeps proper-lockfile's own timer out of the faked minutes.
    const sessions = await openSessions({ home, cwd: tmpHome(), lockStaleMs: 3_600_000 });
    const s = await sessions.create();
    const file = join(s.where.files!.dir, 'session.json');
    const save = vi.spyOn(s, 'save');
    const saved: SaveResult[] = [];
    vi.useFakeTimers({ now: new Date('2026-11-22T10:00:30.000Z') });
    const autosave = startAutosave(s, parseAutosaveSpec('1m'), { onSaved: (r) => saved.push(r) });
    await autosaveStarted(autosave);
    expect(autosave.description).toBe('every 1 min');
    expect(autosave.nextDate()).toEqual(new Date('2026-11-22T10:01:00.000Z'));

    const tick = async () => {
      const calls = save.mock.calls.length;
      await vi.advanceTimersByTimeAsync(60_000);
      expect(save.mock.calls.length).toBe(calls + 1);
      return (await save.mock.results[calls].value) as SaveResult;
    };

    // A new session has no snapshot until something is worth saving.
    expect(await tick()).toMatchObject({ saved: false });
    expect(existsSync(file)).toBe(false);

    await s.append({ role: 'user', content: 'changed' });
    expect(await tick()).toMatchObject({ saved: true, messageCount: 1 });
    const ino1 = statSync(file).ino;
    expect(saved).toHaveLength(1);
    expect(save.mock.calls.every(([options]) => options?.ifChanged === true)).toBe(true);

    expect(await tick()).toMatchObject({ saved: false });
    expect(statSync(file).ino).toBe(ino1); // not rewritten
    await s.append({ role: 'user', content: 'changed again' });
    expect(await tick()).toMatchObject({ saved: true, messageCount: 2 });
    expect(statSync(file).ino).not.toBe(ino1); // a new file renamed into place
    await autosave.stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(save.mock.calls.length).toBe(4);
    vi.useRealTimers();
    await s.close();
  });

  it('a failing tick is reported, not thrown, and the next tick tries again', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome(), lockStaleMs: 3_600_000 });
    const s = await sessions.create();
    const errors: unknown[] = [];
    vi.useFakeTimers({ now: new Date('2026-11-22T10:00:00.500Z') });
    const autosave = startAutosave(s, parseAutosaveSpec('30s'), { onError: (e) => errors.push(e) });
    await autosaveStarted(autosave);
    await s.append({ role: 'user', content: 'x' });
    atomicWriteHooks.beforeRename = () => {
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    };
    const save = vi.spyOn(s, 'save');
    await vi.advanceTimersByTimeAsync(30_000);
    await (save.mock.results[0].value as Promise<unknown>).catch(() => undefined);
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(String(errors[0])).toContain('ENOSPC');
    expect(s.dirty).toBe(true);
    delete atomicWriteHooks.beforeRename;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await (save.mock.results[1].value as Promise<SaveResult>)).toMatchObject({ saved: true });
    await autosave.stop();
    vi.useRealTimers();
    await s.close();
  });

  it('a tick that falls due while the event loop is busy runs late and prints nothing', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome(), lockStaleMs: 3_600_000 });
    const s = await sessions.create();
    const printed = [vi.spyOn(console, 'warn'), vi.spyOn(console, 'error'), vi.spyOn(console, 'log')];
    vi.useFakeTimers({ now: new Date('2026-11-22T10:00:00.500Z') });
    const autosave = startAutosave(s, parseAutosaveSpec('1s'));
    await autosaveStarted(autosave);
    await s.append({ role: 'user', content: 'x' });
    const save = vi.spyOn(s, 'save');
    // The clock runs on while no timer can (a long synchronous stretch): the tick is missed.
    // (setSystemTime moves the clock and every timer's due time with it: none fires.)
    vi.setSystemTime(new Date('2026-11-22T10:00:03.700Z'));
    await vi.advanceTimersByTimeAsync(500);
    expect(save).toHaveBeenCalledTimes(1);
    expect(await (save.mock.results[0]!.value as Promise<SaveResult>)).toMatchObject({ saved: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(autosave.nextDate()).toEqual(new Date('2026-11-22T10:00:05.000Z'));
    await autosave.stop();
    vi.useRealTimers();
    for (const spy of printed) expect(spy).not.toHaveBeenCalled();
    await s.close();
  });

  it('a starved process (its clock jumping between two readings) gets no warning printed', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome(), lockStaleMs: 3_600_000 });
    const s = await sessions.create();
    const printed = [vi.spyOn(console, 'warn'), vi.spyOn(console, 'error'), vi.spyOn(console, 'log')];
    // Each reading of the clock is 700 ms after the last: a tick computed from one reading is
    // already past at the next, which is where cron's own job printed "Missed execution deadline".
    let now = Date.parse('2026-11-22T10:00:00.500Z');
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => (now += 700));
    const autosave = startAutosave(s, parseAutosaveSpec('1s'));
    await autosaveStarted(autosave);
    clock.mockRestore();
    await autosave.stop();
    for (const spy of printed) expect(spy).not.toHaveBeenCalled();
    await s.close();
  });

  it('off starts nothing', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome() });
    const s = await sessions.create();
    const autosave = startAutosave(s, parseAutosaveSpec('off'));
    expect(autosave.description).toBe('off');
    expect(autosave.nextDate()).toBeNull();
    await autosave.stop();
    await s.close();
  });
});

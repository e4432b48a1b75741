import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportSession } from '../../../../src/repl/commands/export.js';
import { OutsideDirectoryError } from '../../../../src/index.js';
import { createMockCommandContext } from '../../../helpers/mock-command-context.js';
import { tmpHome } from '../../../helpers/tmp-home.js';

/** A host directory two levels down in a fresh temporary one, so `../..` stays inside the test's own. */
function hostDir(): { root: string; cwd: string } {
  const root = tmpHome();
  const cwd = join(root, 'a', 'b');
  mkdirSync(cwd, { recursive: true });
  return { root, cwd };
}

describe('/export FILE and the host directory', () => {
  it('refuses a file above the host directory and writes nothing', async () => {
    const { root, cwd } = hostDir();
    const ctx = await createMockCommandContext({ writeTo: { dir: cwd } });
    await ctx.session.current.append({ role: 'user', content: 'hi' });
    const refused = exportSession.run(ctx, 'md ../../x.md');
    await expect(refused).rejects.toBeInstanceOf(OutsideDirectoryError);
    await expect(refused).rejects.toMatchObject({ code: 'E_OUTSIDE_DIRECTORY', exitCode: 2, file: '../../x.md', directory: cwd });
    expect(existsSync(join(root, 'x.md'))).toBe(false);
  });

  it('refuses an absolute path elsewhere and a link that leads out', async () => {
    const { root, cwd } = hostDir();
    mkdirSync(join(root, 'elsewhere'));
    symlinkSync(join(root, 'elsewhere'), join(cwd, 'out'));
    const ctx = await createMockCommandContext({ writeTo: { dir: cwd } });
    await expect(exportSession.run(ctx, `json ${join(root, 'y.json')}`)).rejects.toBeInstanceOf(OutsideDirectoryError);
    await expect(exportSession.run(ctx, 'json out/z.json')).rejects.toBeInstanceOf(OutsideDirectoryError);
    expect(existsSync(join(root, 'y.json'))).toBe(false);
    expect(existsSync(join(root, 'elsewhere', 'z.json'))).toBe(false);
  });

  it('writes inside it, subdirectories included', async () => {
    const { cwd } = hostDir();
    mkdirSync(join(cwd, 'notes'));
    const ctx = await createMockCommandContext({ writeTo: { dir: cwd } });
    await ctx.session.current.append({ role: 'user', content: 'hi' });
    const result = await exportSession.run(ctx, 'md notes/../notes/x.md');
    expect(result).toMatchObject({ level: 'info', content: expect.stringContaining(`to ${join(cwd, 'notes', 'x.md')}`) });
    expect(readFileSync(join(cwd, 'notes', 'x.md'), 'utf8')).toContain('hi');
  });

  it('writes outside it when the host allows it', async () => {
    const { root, cwd } = hostDir();
    const ctx = await createMockCommandContext({ writeTo: { dir: cwd, anywhere: true } });
    await ctx.session.current.append({ role: 'user', content: 'hi' });
    await exportSession.run(ctx, 'md ../../x.md');
    expect(readFileSync(join(root, 'x.md'), 'utf8')).toContain('hi');
  });
});

import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSystemPrompt } from '../../../src/providers/index.js';
import { UserError } from '../../../src/session/api/errors.js';
import { tmpHome } from '../../helpers/tmp-home.js';

describe('loadSystemPrompt', () => {
  it('reads the file relative to cwd and gives its absolute path and sha256', async () => {
    const dir = tmpHome();
    const text = 'You are terse.\nAnswer in one line.\n';
    writeFileSync(join(dir, 'prompt.md'), text);
    const loaded = await loadSystemPrompt('prompt.md', dir);
    expect(loaded).toEqual({
      text,
      ref: { path: join(dir, 'prompt.md'), sha256: createHash('sha256').update(text).digest('hex') },
    });
  });

  it('a missing file is a UserError naming the path and the fix', async () => {
    const dir = tmpHome();
    const loading = loadSystemPrompt('nope.md', dir);
    await expect(loading).rejects.toThrow(UserError);
    await expect(loading).rejects.toMatchObject({
      message: `Cannot read the system prompt \`${join(dir, 'nope.md')}\`: no such file.`,
      advice: { to: 'Give a readable text file:', run: ['--system', 'FILE'], slash: { name: 'system', args: ['FILE'] } },
    });
  });

  it('a directory or an empty file is refused', async () => {
    const dir = tmpHome();
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'empty.md'), ' \n');
    await expect(loadSystemPrompt('sub', dir)).rejects.toThrow('it is a directory');
    await expect(loadSystemPrompt('empty.md', dir)).rejects.toThrow('is empty: write the prompt in it, or leave out --system.');
  });
});

import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { openSessions } from '../../../src/index.js';

describe('one identity per session', () => {
  it('a session folder copied by hand lists and resumes under its own ID, and is saved as that ID', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome('chatkeep-project-') });
    const original = await sessions.create({ title: 'original' });
    await original.append({ role: 'user', content: 'hello' });
    await original.close();
    const dir = original.where.files!.dir;
    const copyId = `${original.id}-copy`;
    cpSync(dir, join(dir, '..', copyId), { recursive: true });

    const rows = await sessions.list();
    expect(rows.map((r) => r.id).sort()).toEqual([original.id, copyId].sort());
    expect(rows.map((r) => r.messageCount)).toEqual([1, 1]);

    const copy = await sessions.resume(copyId);
    expect(copy.id).toBe(copyId);
    expect(copy.resumeReport.notices.join('\n')).toContain(`Its snapshot names session ${original.id}`);
    expect(copy.messages.map((m) => m.content)).toEqual(['hello']);
    await copy.append({ role: 'user', content: 'only in the copy' });
    await copy.close();

    const onDisk = readFileSync(copy.where.files!.snapshot, 'utf8');
    expect(onDisk).toContain(`"id":"${copyId}"`);
    expect((await sessions.read(original.id)).messages.map((m) => m.content)).toEqual(['hello']);
    expect((await sessions.read(copyId)).messages.map((m) => m.content)).toEqual(['hello', 'only in the copy']);
  });
});

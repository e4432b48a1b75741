import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plantedProject, RARE } from '../../../bench/planted.js';
import type { BenchConfig } from '../../../bench/config.js';
import { tmpHome } from '../../helpers/tmp-home.js';

const config = (root: string, keep?: string): BenchConfig => ({ quick: true, runs: 1, warmup: 0, root, ...(keep !== undefined ? { keep } : {}) });

describe('the bench’s planted project', () => {
  it('under --keep is written once and found again by the next run, as it was left', async () => {
    const keep = tmpHome();
    const first = await plantedProject(config(tmpHome(), keep), 30);
    expect(first.reused).toBe(false);
    const rows = await first.manager.list();
    expect(rows).toHaveLength(30);
    expect((await first.manager.search(RARE, { limit: 0 })).total).toBe(1);

    // A later run (another scratch root): nothing written, not even the template session.
    const again = await plantedProject(config(tmpHome(), keep), 30);
    expect(again).toMatchObject({ reused: true, dir: first.dir });
    expect((await again.manager.list()).map((r) => r.id)).toEqual(rows.map((r) => r.id));
  });

  it('starts over when a run stopped before it was written whole, and writes under the scratch root without --keep', async () => {
    const keep = tmpHome();
    const first = await plantedProject(config(tmpHome(), keep), 5);
    await rm(join(first.dir, 'written'));
    const again = await plantedProject(config(tmpHome(), keep), 5);
    expect(again.reused).toBe(false);
    expect(await again.manager.list()).toHaveLength(5);

    const root = tmpHome();
    const scratch = await plantedProject(config(root), 5);
    expect(scratch.dir.startsWith(root)).toBe(true);
    expect(existsSync(join(keep, 'sessions-5', 'written'))).toBe(true);
  });
});

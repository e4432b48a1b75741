/**
 * Hostile input: IDs that try to leave the data directory, control characters and invalid
 * UTF-8 on stdin, a 10 MB line, `__proto__` / `constructor` keys, and a full disk.
 */
import { adversarialLine, controlAndUtf8, hugeLine, protoKeys } from './hostile-input.js';
import { hostileIds } from './hostile-ids.js';
import { fullDisk } from './full-disk.js';
import { Tally, type PartResult } from './part.js';
import { createRandom } from './random.js';

/** Sizes of a hostile-input run. */
export interface HostileOptions {
  root: string;
  /** Size of the single huge line (default 10 MB). */
  hugeLineMb?: number;
  /** Full-disk runs, each with another byte budget (default 12). */
  fullDiskRuns?: number;
  /** Extra runs on a real 1 MB tmpfs, when running as root (default 3; 0 in `npm test`). */
  tmpfsRuns?: number;
  /** IDs tried on the command line (default: all of `HOSTILE_IDS`; /load and the library always get all). */
  ids?: readonly string[];
  seed?: number;
}

/** Runs every hostile-input check; figures count refusals that went wrong and data that was lost. */
export async function run(options: HostileOptions): Promise<PartResult> {
  const tally = new Tally('hostile', { hostileIdsTried: 0, controlLinesSent: 0, hugeLineBytes: 0, protoRoundTrips: 0, fullDiskRuns: 0, tmpfsRuns: 0 }, [
    'wrongExitCodes',
    'notOneLine',
    'writesOutsideHome',
    'crashes',
    'inputMangled',
    'protoKeysMangled',
    'unclearErrors',
    'durableLost',
  ]);
  const rng = createRandom(options.seed ?? 1);
  await hostileIds(options.root, tally, options.ids);
  await controlAndUtf8(options.root, tally);
  await hugeLine(options.root, options.hugeLineMb ?? 10, tally);
  await adversarialLine(options.root, Math.min(options.hugeLineMb ?? 10, 2), tally);
  await protoKeys(options.root, tally);
  await fullDisk(options.root, options.fullDiskRuns ?? 12, rng, tally, options.tmpfsRuns ?? 3);
  return tally.result();
}

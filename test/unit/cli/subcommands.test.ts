/**
 * The `sessions` subcommands are described once (src/cli/sessions/): what the parser accepts and
 * what every help text says are made from that list, so each must agree with the other as a user
 * meets them, on screen and on the command line.
 */
import { describe, expect, it } from 'vitest';
import { DB_OPTIONS, dbHelp } from '../../../src/cli/db-options.js';
import { DB_SUBCOMMANDS } from '../../../src/cli/db/index.js';
import { parseCommandLine, replHelp } from '../../../src/cli/options.js';
import { sessionsHelp } from '../../../src/cli/sessions/help.js';
import { SESSIONS_SUBCOMMANDS } from '../../../src/cli/sessions/index.js';
import { SESSIONS_OPTIONS } from '../../../src/cli/sessions/options.js';
import { UserError } from '../../../src/session/api/errors.js';

/** What each subcommand needs to be run at all. */
const NEEDS: Record<string, string[]> = {
  show: ['s1'], tree: ['s1'], fork: ['s1'], diff: ['s1', 's2'], export: ['s1'], rm: ['s1'], restore: ['s1'], unshare: ['s1'], share: ['s1', '--with', 'bob'],
  search: ['words'], import: ['f.json'], copy: ['--to', '/tmp/x'], prune: ['--older-than', '1d'],
};
const VALUES: Record<string, string> = { 'older-than': '1d', since: '1d', limit: '5', from: 'claude', format: 'md', to: '/tmp/x' };

/** The option given to the subcommand: undefined when accepted, else the error line. */
function refusal(name: string, option: string): string | undefined {
  const spec = SESSIONS_OPTIONS[option as keyof typeof SESSIONS_OPTIONS];
  const argv = ['sessions', name, ...(NEEDS[name] ?? []).filter((w, i, all) => w !== `--${option}` && all[i - 1] !== `--${option}`), `--${option}`, ...(spec.type === 'string' ? [VALUES[option] ?? 'x'] : [])];
  try {
    parseCommandLine(argv);
    return undefined;
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    // What the CLI prints after `chatkeep: `, chatkeep being on PATH.
    return `${err.message}${err.advice?.run ? ` ${err.advice.to} chatkeep ${err.advice.run.join(' ')}` : ''}`;
  }
}
const foreign = (name: string, option: string): boolean => refusal(name, option)?.startsWith(`--${option} is an option of sessions`) === true;
/** The options a help text lists. */
const listed = (help: string): string[] => [...help.split('Options:')[1]!.matchAll(/^ {2}(?:-\w, )?\s*--([\w-]+)/gm)].map((m) => m[1]!);

describe('the sessions subcommands, described once', () => {
  it("lists in each subcommand's --help exactly the options its command line accepts", () => {
    const disagree: string[] = [];
    for (const subcommand of SESSIONS_SUBCOMMANDS) {
      const shown = listed(sessionsHelp(subcommand));
      for (const option of Object.keys(SESSIONS_OPTIONS)) {
        if (shown.includes(option) === foreign(subcommand.name, option)) disagree.push(`${subcommand.name} --${option}`);
      }
    }
    expect(disagree).toEqual([]);
  });

  it('names, in each option line of sessions --help, exactly the subcommands that accept it', () => {
    const help = sessionsHelp();
    const wrong: string[] = [];
    for (const option of Object.keys(SESSIONS_OPTIONS)) {
      const line = help.split('\n').find((l) => new RegExp(`^ {2}(-\\w, | {4})--${option}\\b`).test(l))!;
      const description = line.replace(/^.*?--[\w-]+(?: \S+)? {2,}/, '');
      const accepting = SESSIONS_SUBCOMMANDS.filter((s) => !foreign(s.name, option)).map((s) => s.name);
      // Options every subcommand (or nearly) takes say so without naming them: json, home, store, help.
      const labels = /^[a-z-]+(?: --[a-z]+)?(?:, [a-z-]+(?: --[a-z]+)?)*: /;
      if (!labels.test(description)) continue;
      const named = description.split(new RegExp(`; (?=${labels.source.slice(1)})`)).flatMap((part) => part.split(': ')[0]!.split(', ').map((label) => label.split(' ')[0]!));
      if ([...named].sort().join() !== [...accepting].sort().join()) wrong.push(`--${option}: names ${named.join(', ')}; accepted by ${accepting.join(', ')}`);
    }
    expect(wrong).toEqual([]);
  });

  it('says --all is taken by show too (its help line had drifted from the parser)', () => {
    expect(sessionsHelp(SESSIONS_SUBCOMMANDS.find((s) => s.name === 'show'))).toContain(
      '  -a, --all        browse, list, show, search, copy, prune, import --from: every project, not just this one',
    );
    expect(refusal('show', 'all')).toBeUndefined();
  });

  it('gives every subcommand a usage line in sessions --help and a place in chatkeep --help', () => {
    const usage = sessionsHelp().split('Options:')[0]!;
    const overview = replHelp('9.9.9');
    for (const { name } of SESSIONS_SUBCOMMANDS) {
      expect(usage).toMatch(new RegExp(`^ {2}chatkeep sessions ${name}\\b`, 'm'));
      expect(overview).toMatch(new RegExp(`^ {2}chatkeep sessions (?:[a-z-]+\\|)*${name}\\b`, 'm'));
    }
  });

  it('refuses an option in one line naming the subcommands that take it, the conditional ones last', () => {
    expect(refusal('trash', 'dry-run')).toBe('--dry-run is an option of sessions prune and import. See chatkeep sessions --help');
    expect(refusal('import', 'dry-run')).toBe("--dry-run goes with --from TOOL (importing another tool's sessions). See chatkeep sessions --help");
    expect(refusal('unshare', 'write')).toBe('--write is an option of sessions share. See chatkeep sessions --help');
  });

  it("does the same for chatkeep db: each subcommand's --help lists exactly the options it accepts, and chatkeep --help names each", () => {
    const disagree: string[] = [];
    for (const subcommand of DB_SUBCOMMANDS) {
      const shown = listed(dbHelp(subcommand.name));
      for (const [option, spec] of Object.entries(DB_OPTIONS)) {
        let line: string | undefined;
        try {
          parseCommandLine(['db', subcommand.name, `--${option}`, ...(spec.type === 'string' ? ['x'] : [])]);
        } catch (err) {
          if (!(err instanceof UserError)) throw err;
          line = err.message;
        }
        if (shown.includes(option) === (line?.startsWith(`--${option} is an option of db`) === true)) disagree.push(`${subcommand.name} --${option}`);
      }
      expect(replHelp('9.9.9')).toMatch(new RegExp(`^ {2}chatkeep db (?:[a-z]+\\|)*${subcommand.name}\\b`, 'm'));
    }
    expect(disagree).toEqual([]);
  });
});

/** `chatkeep db setup [--member ROLE…]`: an admin sets a team's server up once, and adds members. */
import { commandOf } from '../chatkeep-host.js';
import type { DbSubcommand } from './subcommand.js';

export const setup: DbSubcommand = {
  name: 'setup',
  options: {
    member: 'make the login role ROLE a member of the team (repeat for several; run again to add one)',
    print: 'print the SQL it would run, change nothing',
    json: true,
  },
  usage: [
    {
      synopsis: 'db setup [--member ROLE…] [--print] [--json]',
      text: [
        'run once by an admin (a role that may create schemas and roles):',
        'the schema, owned by chatkeep_owner, row-level security on every',
        'table, the team role chatkeep_team, and each ROLE made a member',
      ],
    },
  ],
  run: async (command, url, environment) => {
    const [{ withPool }, { setupTeam, setupScript }] = await Promise.all([import('../../store/postgres/pool-scope.js'), import('../../store/postgres/team-setup.js')]);
    const print = command.options.print === true;
    const result = await withPool(url, environment.env, (pool, target) => setupTeam(pool, target, command.members, print), { migrate: false });
    const { stdout } = environment;
    if (command.options.json === true) stdout.write(`${JSON.stringify({ ...result, applied: !print }, null, 2)}\n`);
    else if (print) stdout.write(setupScript(result));
    else stdout.write(`${(await import('../db-text.js')).setupLines(result, commandOf(environment)(['db', 'status'])).join('\n')}\n`);
    return 0;
  },
};

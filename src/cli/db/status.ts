/** `chatkeep db status`: what anyone can see of a team's server: schema, role, row-level security, pooler. */
import type { DbSubcommand } from './subcommand.js';

export const status: DbSubcommand = {
  name: 'status',
  options: { json: true },
  usage: [
    {
      synopsis: 'db status [--json]',
      text: ['schema version, the role you are, the row-level security in force', 'and whether the connection goes through a pooler'],
    },
  ],
  run: async (command, url, environment) => {
    const [{ withPool }, { dbStatus }] = await Promise.all([import('../../store/postgres/pool-scope.js'), import('../../store/postgres/db-status.js')]);
    const result = await withPool(url, environment.env, dbStatus, { migrate: false });
    const json = command.options.json === true;
    environment.stdout.write(`${json ? JSON.stringify(result, null, 2) : (await import('../db-text.js')).statusLines(result).join('\n')}\n`);
    return 0;
  },
};

/** `chatkeep sessions doctor [ID]`: every session with a problem, and what can be restored of it. */
import { type SessionsSubcommand } from './subcommand.js';

export const doctor: SessionsSubcommand = {
  name: 'doctor',
  args: { min: 0, max: 1 },
  options: {
    json: true,
    restore: "with ID: a new session of the messages its damaged parts kept aside hold and it lacks (it is left as it is)",
    forget: 'with ID: remove its damaged parts kept aside for good (asks first, or --yes)',
    yes: 'remove without asking (needed when not on a terminal)',
  },
  usage: [
    { synopsis: 'sessions doctor [ID] [--json]', text: ['every session with a problem (of every project), or one: what is wrong and what can be restored (exit 1 when any)'], overview: true },
    { synopsis: 'sessions doctor ID --restore | --forget [--yes]', text: ['restore what its damaged parts kept aside hold as a new session, or let them go'] },
  ],
  check: (args, options, fail) => {
    if ((options.restore || options.forget) && args.length === 0) throw fail(`--${options.restore ? 'restore' : 'forget'} needs a session ID: sessions doctor ID --${options.restore ? 'restore' : 'forget'}`);
    if (options.restore && options.forget) throw fail('--restore and --forget go one at a time: restore first, then forget');
  },
  run: async (command, environment) => (await import('./doctor-run.js')).runDoctor(command, environment),
};

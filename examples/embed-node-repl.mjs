// Node's own REPL kept as a chatkeep session: .sessions .save .load .reset .fork .title .status
// .export; every line and what it printed is journaled; .exit, Ctrl-D, SIGTERM and a hang-up save
// it and print the way back. Run: node examples/embed-node-repl.mjs [SESSION-ID]
// In your own project: `npm install chatkeep`, then the same lines.
import repl from 'node:repl';
import os from 'node:os';
import { attach } from 'chatkeep/repl';

const { closed } = await attach(repl.start({ prompt: 'embed> ' }), {
  home: process.env.CHATKEEP_HOME ?? `${os.homedir()}/.chatkeep`, cwd: process.cwd(),
  host: { program: 'node examples/embed-node-repl.mjs', resumeFlag: '' },
  resume: process.argv[2], signals: process,
});
process.exitCode = await closed;

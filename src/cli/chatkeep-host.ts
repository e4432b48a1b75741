/** chatkeep as a host names itself: its printed commands are the ones that run where it was started (PATH, `npm start`, `node …`). */
import type { HostName } from '../repl/host.js';
import { chatkeepCommand } from '../terminal/invocation.js';

export const CHATKEEP: HostName = { program: 'chatkeep', command: chatkeepCommand };

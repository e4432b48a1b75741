/**
 * How chatkeep's chat ends once its loop is over, however it was asked to (the ways out are
 * watched by `watchLeaving` in src/repl/leaving.ts, as for every host): the unsent line is kept,
 * then the controller closes the session and the exit lines are shown.
 */
import type { SessionController } from '../../repl/controller.js';
import { showLines } from '../../repl/render.js';
import type { Screen } from '../../terminal/screen.js';
import { keepDraft } from './draft.js';
import type { LineReader } from './line-reader.js';

/** Keeps the unsent line, closes the session through the controller and shows the exit lines; resolves to the exit code. */
export async function finishChat(screen: Screen, controller: SessionController, reader: LineReader): Promise<number> {
  await keepDraft(screen, controller.session, reader);
  const { code, lines } = await controller.leave();
  showLines(screen, lines);
  return code;
}

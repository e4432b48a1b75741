/**
 * A spinner shown until the first token of a reply arrives (terminal only).
 */
import type { Screen } from '../../terminal/screen.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A started spinner; `stop()` erases it and is idempotent. */
export interface Spinner {
  stop(): void;
}

/** Starts a spinner on `screen` (a no-op when piped). */
export function startSpinner(screen: Screen, label = 'thinking…'): Spinner {
  if (!screen.terminal) return { stop() {} };
  let frame = 0;
  const draw = (): void => screen.raw(`\r${screen.color.cyan(FRAMES[frame++ % FRAMES.length])} ${screen.color.dim(label)}`);
  draw();
  const timer = setInterval(draw, 80);
  timer.unref();
  let running = true;
  return {
    stop() {
      if (!running) return;
      running = false;
      clearInterval(timer);
      screen.raw('\r\x1b[K');
    },
  };
}

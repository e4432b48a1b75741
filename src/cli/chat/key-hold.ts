/**
 * Holds a terminal's keypresses while a reply streams, so readline does not echo type-ahead
 * into the middle of the reply. Ctrl-C and Esc still get through (each stops the reply); every
 * other key is replayed to readline, in order, once the next prompt is up.
 */

/** A key as Node's keypress parser reports it. */
interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
}
type KeyListener = (chunk: string | undefined, key: Key | undefined) => void;

/** Keys being held. */
export interface KeyHold {
  /** Gives the keypress listeners back and replays the held keys to them. */
  release(): void;
  /** Gives nothing back (the reader is closing): held keys are dropped. */
  drop(): void;
  /** What the held keys type: their characters, Enter as a line break, Backspace taking one back. */
  typed(): string;
}

/** What the held keys still do at once. */
export interface HeldKeys {
  /** Ctrl-C. */
  onInterrupt(): void;
  /** Esc (alone: Alt-x and the like arrive as one key of their own, never as Esc). */
  onEscape(): void;
}

/** Detaches every `keypress` listener of `input` (readline's among them) until release. */
export function holdKeys(input: NodeJS.ReadableStream, keys: HeldKeys): KeyHold {
  const saved = input.listeners('keypress') as KeyListener[];
  for (const listener of saved) input.removeListener('keypress', listener);
  const held: [string | undefined, Key | undefined][] = [];
  const hold: KeyListener = (chunk, key) => {
    if (key?.ctrl && key.name === 'c') keys.onInterrupt();
    else if (key?.name === 'escape') keys.onEscape();
    else held.push([chunk, key]);
  };
  input.on('keypress', hold);
  let active = true;
  const detach = (): boolean => {
    if (!active) return false;
    active = false;
    input.removeListener('keypress', hold);
    return true;
  };
  return {
    release() {
      if (!detach()) return;
      for (const listener of saved) input.on('keypress', listener);
      for (const [chunk, key] of held) input.emit('keypress', chunk, key);
    },
    drop() {
      detach();
    },
    typed() {
      let text = '';
      for (const [chunk, key] of held) {
        if (key?.name === 'return' || key?.name === 'enter') text += '\n';
        else if (key?.name === 'backspace') text = text.slice(0, -1);
        else if (chunk && !key?.ctrl && !key?.meta && !/[\x00-\x1f\x7f]/.test(chunk)) text += chunk;
      }
      return text.replace(/\n+$/, '');
    },
  };
}

/**
 * The browser prompt's state and refs on two @inquirer/core hooks instead of twenty. Its
 * `useState` binds an AsyncResource to a new setter at every hook of every render (about 15 µs
 * each, the bind making two deprecation wrappers), and its `useRef` is a `useState`: the
 * browser's twenty cost about as much per frame as drawing it. Here each value lives in a cell
 * made once (a `useMemo` without dependencies binds nothing), and a change repaints through the
 * one `useState` left, as a state set does: at once, or once for all the sets of a key press.
 */
type Core = typeof import('@inquirer/core');
type Setter<T> = (next: T | ((current: T) => T)) => void;

export interface Cells {
  /** As `useState`: this render's value, and a setter that repaints when the value changes. */
  state<T>(initial: T | (() => T)): [T, Setter<T>];
  /** As `useRef`. */
  ref<T>(initial: T): { current: T };
  /** Paints the frame again (something outside the state changed: a preview read). */
  repaint(): void;
}

/** Called where the hooks are, first, in every render. */
export function useCells(core: Core): Cells {
  const [, setTick] = core.useState(0);
  const repaintWith = core.useMemo(() => ({ current: setTick }), []);
  // The setter bound at this render: it repaints in this prompt's hook scope from anywhere.
  repaintWith.current = setTick;
  const repaint = (): void => repaintWith.current((n) => n + 1);
  return {
    state: <T>(initial: T | (() => T)) => core.useMemo(() => cell(initial, repaint), []).now(),
    ref: <T>(initial: T) => core.useMemo(() => ({ current: initial }), []),
    repaint,
  };
}

function cell<T>(initial: T | (() => T), repaint: () => void): { now(): [T, Setter<T>] } {
  let value = typeof initial === 'function' ? (initial as () => T)() : initial;
  const set: Setter<T> = (next) => {
    const nextValue = typeof next === 'function' ? (next as (current: T) => T)(value) : next;
    if (Object.is(nextValue, value)) return;
    value = nextValue;
    repaint();
  };
  return { now: () => [value, set] };
}

// marked-terminal 7 ships no types (and @types/marked-terminal describes version 6): the one
// function chatkeep calls.
declare module 'marked-terminal' {
  import type { MarkedExtension } from 'marked';
  export function markedTerminal(options?: Record<string, unknown>, highlightOptions?: Record<string, unknown>): MarkedExtension;
}

/** The arguments of `/fork [--at N] [title]` and `--fork ID --at N`. Pure. */
import { printable, UserError } from '../session/api/errors.js';

/** `N` of `--at N`: a whole number of messages; a `UserError` (exit 2, one line in the chat) for anything else. */
export function parseForkAt(text: string): number {
  if (!/^\d{1,9}$/.test(text.trim())) {
    throw new UserError(`Bad --at \`${printable(text)}\`: give the number of messages the fork keeps (0 or more), such as --at 4.`, 'E_FORK_POINT');
  }
  return Number(text.trim());
}

/** `/fork [--at N] [title]` (also `--at=N`): where to fork, and the fork's title if one was given. */
export function parseForkArgs(args: string): { at?: number; title?: string } {
  const words = args.trim().split(/\s+/).filter((w) => w !== '');
  let at: number | undefined;
  const rest: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--at') {
      if (words[i + 1] === undefined) throw new UserError('--at needs the number of messages the fork keeps.', 'E_FORK_POINT', 2, { to: 'For example:', slash: { name: 'fork', args: ['--at', '4'] } });
      at = parseForkAt(words[++i]!);
    } else if (word.startsWith('--at=')) {
      at = parseForkAt(word.slice('--at='.length));
    } else {
      rest.push(word);
    }
  }
  const title = rest.join(' ');
  return { ...(at !== undefined ? { at } : {}), ...(title !== '' ? { title } : {}) };
}

/** Shell quoting for the commands chatkeep and its hosts print (they must run as printed). */

/** Quotes a word for a POSIX shell when it holds anything but plainly safe characters. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

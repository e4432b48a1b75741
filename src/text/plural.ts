/** `1 message`, `3 messages`: every count chatkeep prints with a noun goes through here. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * What the scale bench's server holds (deterministic, from a seed): sessions spread over members
 * and projects, of 1 to 2,000 messages with a long tail (about 20 on average), messages of 20 to
 * 4,000 characters with a long tail. `journal` is in nearly every message; `zanzibar` in about
 * one message of 20,000 (the one-word search's word). Messages are drawn from a pool of texts
 * (`messagePool`), the rare ones made apart.
 */
export const RARE = 'zanzibar';
export const COMMON = 'journal';
/** Project keys every member works in (a repository the team shares): the listing filters by owner within one. */
export const PROJECTS = 10;

/** A small, seeded generator (mulberry32): the same data on every run. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A session's message count: a Pareto tail, capped at 2,000. */
export function messageCount(r: () => number): number {
  return Math.min(2000, Math.max(1, Math.round(6 * Math.pow(1 - r(), -0.7))));
}

const WORDS = ('the lock snapshot index append session member writer fence epoch commit resume search listing project ' +
  'server table query plan row policy pool client message reply model token branch fork tree title time cost').split(' ');

/** One message's text: 20 to 4,000 characters, holding RARE when `rare`. */
export function messageText(r: () => number, rare = false): string {
  const length = Math.min(4000, 20 + Math.round(40 * Math.pow(1 - r(), -0.8)));
  const parts: string[] = r() < 0.97 ? [COMMON] : [];
  if (rare) parts.push(RARE);
  let size = parts.join(' ').length;
  while (size < length) {
    const w = WORDS[Math.floor(r() * WORDS.length)]!;
    parts.push(w);
    size += w.length + 1;
  }
  // Shuffle the two marked words into the text, not always at its start.
  if (parts.length > 3) [parts[0], parts[2]] = [parts[2]!, parts[0]!];
  return parts.join(' ').slice(0, length);
}

/** How many texts a build draws its messages from. */
export const POOL = 65_536;

/**
 * The texts the messages are drawn from, none holding RARE: assembling every one of ~20 M
 * messages word by word was most of a build's time, and drawing from 65,536 texts made as each
 * message was keeps what a message holds (its length and words, COMMON in ~97%) and what the
 * server stores and indexes of it.
 */
export function messagePool(seed: number): string[] {
  const r = random(seed);
  return Array.from({ length: POOL }, () => messageText(r));
}

/** The next message: a text of the pool, or, about once in 20,000 messages, a text of its own holding RARE. */
export function nextMessage(r: () => number, pool: readonly string[]): { text: string; pooled: number } {
  if (r() < 1 / 20_000) return { text: messageText(r, true), pooled: -1 };
  const pooled = Math.floor(r() * pool.length);
  return { text: pool[pooled]!, pooled };
}

/**
 * A session's messages as search counts them, kept in blocks (docs/design.md §18): each row of
 * `chatkeep.search_blocks` holds the folded texts of up to BLOCK consecutive messages of one
 * session, in order, as an array, so that a search reading a searcher's sessions one by one
 * counts a common word from a row per block, not a row per message.
 *
 * A word in nearly every message made a member's search read every message row she may read
 * (~185,000 at 1,000,000 sessions), and each row cost about 1.2 µs before any counting: the
 * index descent and heap fetch per message, the read policies per row, the trigram policy's
 * pattern (search-narrowing.ts). A block costs that once for up to 32 messages; the messages'
 * texts are then read from the array in memory. Search finds the message with the most hits
 * from the same array (its position is its number), so the answers are those counted from the
 * message rows (search-match.ts).
 *
 * Blocks are derived rows: each is made from the message rows by `blocksOf`, the one rule for
 * the migration, the write (search-rows.ts, which remakes the blocks its new messages fall in, in
 * the same statement) and the scale bench's load. A session whose blocks do not cover as many
 * messages as its search facts say (a block lost) is counted from its message rows instead:
 * never trusted short. Blocks under 8 kB stay in their row uncompressed (`toast_tuple_target`):
 * by the member's backend CPU at 1,000,000 sessions, 196 ms with it, 237 ms with the default
 * (compressed past 2 kB).
 */
import { ownedAndNamed, sessionReadable } from './search-owner.js';

/** Messages a block holds: block `b` holds messages `b * BLOCK` to `b * BLOCK + BLOCK - 1`. */
export const BLOCK = 32;

/** The blocks of the message rows `source` (with `session_id`, `owner`, `n`, `folded`), as rows of `search_blocks`. */
export const blocksOf = (source: string): string =>
  `SELECT m.session_id, m.owner, m.n / ${BLOCK} AS block, array_agg(m.folded ORDER BY m.n) AS folded FROM ${source} m GROUP BY m.session_id, m.owner, m.n / ${BLOCK}`;

/**
 * The table, filled from every message row as the schema's owner (row security off for
 * `search_messages` while it reads them, as search-owner.ts's migration does), then under the
 * search rows' policies: read by the row's owner at once, by anyone else only where they may read
 * the session; written by its owner only, naming itself. No trigram policy: blocks are read by
 * session, never narrowed by an index.
 */
export const SEARCH_BLOCKS_MIGRATION = `
  CREATE TABLE chatkeep.search_blocks (
    session_id text COLLATE "C" NOT NULL,
    owner text NOT NULL DEFAULT current_user,
    block integer NOT NULL,
    folded text[] NOT NULL,
    PRIMARY KEY (session_id, block),
    CONSTRAINT search_blocks_session_fkey FOREIGN KEY (session_id, owner)
      REFERENCES chatkeep.search_sessions (session_id, owner) ON DELETE CASCADE
  ) WITH (toast_tuple_target = 8160);
  ALTER TABLE chatkeep.search_messages NO FORCE ROW LEVEL SECURITY;
  INSERT INTO chatkeep.search_blocks (session_id, owner, block, folded) ${blocksOf('chatkeep.search_messages')};
  ALTER TABLE chatkeep.search_messages FORCE ROW LEVEL SECURITY;
  ALTER TABLE chatkeep.search_blocks ENABLE ROW LEVEL SECURITY;
  ALTER TABLE chatkeep.search_blocks FORCE ROW LEVEL SECURITY;
  CREATE POLICY search_blocks_read ON chatkeep.search_blocks FOR SELECT USING (search_blocks.owner = current_user OR ${sessionReadable('search_blocks')});
  CREATE POLICY search_blocks_insert ON chatkeep.search_blocks FOR INSERT WITH CHECK (${ownedAndNamed('search_blocks')});
  CREATE POLICY search_blocks_update ON chatkeep.search_blocks FOR UPDATE USING (${ownedAndNamed('search_blocks')}) WITH CHECK (${ownedAndNamed('search_blocks')});
  CREATE POLICY search_blocks_delete ON chatkeep.search_blocks FOR DELETE USING (${ownedAndNamed('search_blocks')});
  ANALYZE chatkeep.search_blocks;
`;

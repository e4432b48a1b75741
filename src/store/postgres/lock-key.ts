/**
 * chatkeep's advisory locks use the two-key form `(LOCK_SPACE, n)`, which PostgreSQL keeps apart
 * from the one-key (bigint) form other programs sharing the database usually use.
 * `n` = 0 serializes migrations; a session's key in `chatkeep.lock_keys` (random, from 1, readable
 * only by those who may write the session) is its writer lock.
 */
export const LOCK_SPACE = 0x63686b70; // 'chkp'

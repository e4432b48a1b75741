/**
 * chatkeep's advisory locks use the two-key form `(LOCK_SPACE, n)`, which PostgreSQL keeps apart
 * from the one-key (bigint) form other programs sharing the database usually use.
 * `n` = 0 serializes migrations; a session's `lock_key` (from 1) is its writer lock.
 */
export const LOCK_SPACE = 0x63686b70; // 'chkp'

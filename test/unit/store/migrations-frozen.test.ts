/**
 * A released migration never changes: a server already at version n ran `MIGRATIONS[n - 1]` as it
 * was, and never runs it again, so an edit would give new servers one schema and upgraded ones
 * another. Several migrations are built from a query the build also sends (the listing's, the
 * append's), which makes such an edit easy to miss: a build that changes one of those queries
 * keeps the text the old migration was written with and replaces the function by a new one.
 * The digests below are of the migrations as released; a new one is added at the end.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../src/store/postgres/migrations.js';

const RELEASED = [
  /* 1 */ '316351f894043300',
  /* 2 */ '882bd2fadf8fd51f',
  /* 3 */ '467a94c90074a4f6',
  /* 4 */ 'a1f1a97b7c5a0af7',
  /* 5 */ 'a297b7af70e88e81',
  /* 6 */ '4f5d7515da839cee',
  /* 7 */ 'cbc85146818e3748',
  /* 8 */ 'a544eeb267531e26',
  /* 9 */ '92d7f659f9987801',
  /* 10 */ 'be7b960cc63642c9',
  /* 11 */ '1356ba5f94ce6b7d',
  /* 12 */ '9903bd4bda8b6df7',
  /* 13 */ '555252efcd27523b',
  /* 14 */ 'f4947c2fae06ff70',
  /* 15 */ '013080a3e1a404be',
  /* 16 */ '7bc5c8ec7ebb434d',
  /* 17 */ '1ffe931ad64849e8',
  /* 18 */ '027e5d8f2f0db078',
  /* 19 */ '96f13265eeb79385',
  /* 20 */ '1f27235682afa1b9',
  /* 21 */ 'c6629f2dbb77438b',
  /* 22 */ '2608dd4ef694c213',
  /* 23 */ 'dae0369c0cca9830',
  /* 24 */ '08da3f8097c5d494',
  /* 25 */ '853b873b4bfd77cc',
  /* 26 */ '309288fd4d8a5e9d',
  /* 27 */ '72a607c9c7f87c3f',
  /* 28 */ 'c93dc1c272ffb168',
  /* 29 */ 'ce6255ea43b69d9e',
  /* 30 */ 'f17f3a8015a80f52',
  /* 31 */ '32d8e6d5f3bfa001',
  /* 32 */ 'a9dfdad7579add10',
  /* 33 */ '6b52f3fe34430afa',
  /* 34 */ '41d9cad0a832b93f',
  /* 35 */ 'ea122de075f1d124',
  /* 36 */ 'eede2c124946b342',
];

const digest = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

describe('the PostgreSQL migrations', () => {
  it('keep every released migration as it was released (a change is a new migration at the end)', () => {
    expect(MIGRATIONS.length).toBeGreaterThanOrEqual(RELEASED.length);
    const changed = RELEASED.flatMap((was, i) => (digest(MIGRATIONS[i]!) === was ? [] : [`version ${i + 1}`]));
    expect(changed).toEqual([]);
  });
});

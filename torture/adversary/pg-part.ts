/**
 * The PostgreSQL trials of the part `adversary` (row security by operation, squatting): on a
 * fresh team database per round. Every figure that counts harm must be 0.
 */
import { Tally, type PartResult } from '../part.js';
import { forgeryTrial } from './pg-forgeries.js';
import { squatTrial } from './pg-squats.js';
import { makeTeam } from './pg-team.js';

export interface PgAdversaryOptions {
  root: string;
  /** A superuser's URL on the server (the admin). */
  url: string;
  rounds: number;
  seed: number;
}

export async function runPgAdversary(options: PgAdversaryOptions): Promise<PartResult> {
  const tally = new Tally('adversary (PostgreSQL)', { rounds: options.rounds, forgeriesTried: 0, squatsTried: 0 }, [
    'setupFailures',
    'forgeriesTaken',
    'ownerTablesChanged',
    'forgedRowsOwnerSees',
    'membersBlocked',
  ]);
  for (let round = 0; round < options.rounds; round++) {
    const tag = `${Date.now().toString(36)}${options.seed}r${round}`;
    let team;
    try {
      team = await makeTeam(options.root, options.url, tag);
    } catch (err) {
      tally.fail('setupFailures', String(err));
      continue;
    }
    await forgeryTrial(team, tally);
    await squatTrial(team, tally);
  }
  return tally.result();
}

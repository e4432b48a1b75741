/**
 * The trials of the `adversary` part: each one writes as someone other than this build of
 * chatkeep would (a newer build, another role, a failing server) and counts what the owner
 * loses or is shown falsely. A trial is one entry of `ADVERSARY_TRIALS`; a file per kind of
 * adversary adds its own (`pg-*.ts` for PostgreSQL roles), so the list grows without the part
 * changing.
 */
import type { AdversaryTrial } from './trial.js';
import { newerEventTrials } from './newer-events.js';
import { serverFailureTrials } from './server-failures.js';
import { writeFailureTrials } from './write-failures.js';

/** The figures every trial counts under; each must stay 0. */
export const MUST_BE_ZERO = ['messagesLost', 'phantomMessages', 'duplicatedMessages', 'eventsDropped', 'snapshotsDamaged', 'needlessForks'];

export const ADVERSARY_TRIALS: AdversaryTrial[] = [...newerEventTrials, ...writeFailureTrials, ...serverFailureTrials];

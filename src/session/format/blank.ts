import type { SessionSnapshot } from '../api/data.js';
import { SCHEMA_VERSION } from './migrations.js';

/** A blank snapshot for a session whose snapshot is missing or damaged. */
export function blankSnapshot(id: string, projectPath: string, createdAt: Date, toolVersion = 'unknown'): SessionSnapshot {
  return {
    format: 'chatkeep.session',
    schemaVersion: SCHEMA_VERSION,
    id,
    title: null,
    createdAt,
    updatedAt: createdAt,
    status: 'open',
    project: projectPath,
    host: '',
    pid: 0,
    toolVersion,
    provider: { name: 'echo', model: null },
    systemPrompt: null,
    config: {},
    messages: [],
    summary: null,
    archived: [],
    stats: { messageCount: 0, inputTokens: 0, outputTokens: 0 },
    journalSeq: 0,
  };
}

/** When an ID says it was made (`session-YYYYMMDD-HHmmss`), else undefined. */
export function dateFromId(id: string): Date | undefined {
  const m = /^session-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})/.exec(id);
  return m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6])) : undefined;
}

/**
 * Errors the server answers with that are neither a bug nor the server gone: it is out of room,
 * or a limit of its own stopped a statement. Each is told as what it is, with what to do; the
 * chat treats them as a store that refused the work for now (nothing shown as stored that is not).
 */
import { StoreUnavailableError } from '../../session/api/errors.js';

interface Where {
  location: string;
}

const codeOf = (err: unknown): string => (typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '');

/** `err` as one line when it is one of these, else undefined. */
export function serverRefusal(err: unknown, reason: string, target: Where): StoreUnavailableError | undefined {
  const code = codeOf(err);
  if (code === '53100') {
    return new StoreUnavailableError(
      `The PostgreSQL server at ${target.location} is out of disk space (${reason}): nothing more is stored until space is freed on the server.`,
    );
  }
  if (code === '53200' || code === '53000') {
    return new StoreUnavailableError(`The PostgreSQL server at ${target.location} is out of memory or another resource (${reason}): try again shortly.`);
  }
  if (code === '53300') {
    return new StoreUnavailableError(`The PostgreSQL server at ${target.location} takes no more connections (${reason}): try again shortly, or ask its admin to raise max_connections.`);
  }
  if (code === '57014' && /statement timeout/i.test(reason)) {
    return new StoreUnavailableError(
      `The PostgreSQL server at ${target.location} stopped a statement at its statement_timeout (${reason}): the setting is shorter than chatkeep needs; ask the admin to raise it for your role.`,
    );
  }
  if (code === '55P03') {
    return new StoreUnavailableError(
      `The PostgreSQL server at ${target.location} gave up waiting for a lock another connection holds (${reason}): try again shortly.`,
    );
  }
  return undefined;
}

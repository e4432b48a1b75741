/**
 * chatkeep's functions on the server, as the tests that check a migration made them read them:
 * which exist under a name, and the one a kept plan runs (docs/postgres.md: each such function
 * holds this build's query, runs as its caller and keeps one generic plan per connection).
 */
import { expect } from 'vitest';
import { runSql } from './postgres.js';

export type ServerFunction = { args: string; prosrc: string; proconfig: string[] | null; prosecdef: boolean };

/** Every function `chatkeep.<name>` (one per argument list), with its arguments, source and settings. */
export async function serverFunctions(url: string, name: string): Promise<ServerFunction[]> {
  return runSql<ServerFunction>(
    url,
    "SELECT pg_get_function_identity_arguments(oid) AS args, prosrc, proconfig, prosecdef FROM pg_proc WHERE proname = $1 AND pronamespace = 'chatkeep'::regnamespace ORDER BY 1",
    [name],
  );
}

/** The one function `chatkeep.<name>`, checked to run as its caller with its plan kept generic. */
export async function serverKeptPlan(url: string, name: string): Promise<ServerFunction> {
  const found = await serverFunctions(url, name);
  expect(found).toHaveLength(1);
  expect(found[0]!.prosecdef).toBe(false);
  expect(found[0]!.proconfig).toContain('plan_cache_mode=force_generic_plan');
  return found[0]!;
}

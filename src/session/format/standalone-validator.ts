/**
 * The validators of chatkeep's JSON Schemas: ajv's standalone code, generated into
 * `schema/<name>.validate.mjs` by `schema/build-validator.mjs` (loads in a millisecond), only
 * when a file of that kind is first checked. The files are committed and shipped (unit tests
 * hold them to their schemas), so ajv itself is needed only to generate them: a library user
 * does not install it.
 */

/** An ajv validator: true when valid, else false with the first problem in `errors`. */
type Validator = ((data: unknown) => boolean) & { errors?: { instancePath: string; message?: string; params: Record<string, unknown> }[] | null };

const loaded = new Map<string, Promise<Validator>>();

function loadValidator(name: 'session' | 'export'): Promise<Validator> {
  let validator = loaded.get(name);
  if (!validator) {
    validator = (async () => {
      // From the bundle (dist/bundle), the sources (src/session/format) or tsc's output (dist/src/session/format).
      const tried: string[] = [];
      for (const rel of [`../../schema/${name}.validate.mjs`, `../../../schema/${name}.validate.mjs`, `../../../../schema/${name}.validate.mjs`]) {
        const url = new URL(rel, import.meta.url);
        try {
          const mod = (await import(url.href)) as { default: Validator };
          if (typeof mod.default === 'function') return mod.default;
        } catch (err) {
          tried.push(`${url.pathname}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      throw new Error(`chatkeep's ${name} validator did not load (${tried.join('; ')}): the installation is incomplete.`);
    })();
    loaded.set(name, validator);
  }
  return validator;
}

/**
 * What is wrong with `data` against schema `name` (`/messages/3/role must be equal to one of
 * the allowed values`), or undefined when it is valid.
 */
export async function schemaProblem(name: 'session' | 'export', data: unknown): Promise<string | undefined> {
  const validator = await loadValidator(name);
  if (validator(data)) return undefined;
  const first = validator.errors?.[0];
  if (!first) return 'does not match the schema';
  const extra = (first.params as { additionalProperty?: unknown }).additionalProperty;
  return `${first.instancePath || '/'} ${first.message ?? 'is invalid'}${typeof extra === 'string' ? ` (\`${extra}\`)` : ''}`;
}

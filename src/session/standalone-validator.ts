/**
 * The validators of chatkeep's JSON Schemas: ajv's standalone code, generated into
 * `schema/<name>.validate.mjs` by `schema/build-validator.mjs` (loads in a millisecond), or,
 * if that file is missing, ajv compiling the schema (about 90 ms). Either way, only when a
 * file of that kind is first checked.
 */
import type { ValidateFunction } from 'ajv';

type Validator = ((data: unknown) => boolean) & { errors?: ValidateFunction['errors'] };

const loaded = new Map<string, Promise<Validator>>();

function loadValidator(name: 'session' | 'export', schema: object): Promise<Validator> {
  let validator = loaded.get(name);
  if (!validator) {
    validator = (async () => {
      // From the bundle (dist/bundle) or the sources (src/session), then from tsc's output (dist/src/session).
      for (const rel of [`../../schema/${name}.validate.mjs`, `../../../schema/${name}.validate.mjs`]) {
        try {
          const mod = (await import(new URL(rel, import.meta.url).href)) as { default: Validator };
          if (typeof mod.default === 'function') return mod.default;
        } catch {
          // not at this place: try the next, then ajv
        }
      }
      const { default: Ajv } = await import('ajv');
      return new Ajv.default({ allErrors: false, strict: false }).compile(schema);
    })();
    loaded.set(name, validator);
  }
  return validator;
}

/**
 * What is wrong with `data` against schema `name` (`/messages/3/role must be equal to one of
 * the allowed values`), or undefined when it is valid.
 */
export async function schemaProblem(name: 'session' | 'export', schema: object, data: unknown): Promise<string | undefined> {
  const validator = await loadValidator(name, schema);
  if (validator(data)) return undefined;
  const first = validator.errors?.[0];
  if (!first) return 'does not match the schema';
  const extra = (first.params as { additionalProperty?: unknown }).additionalProperty;
  return `${first.instancePath || '/'} ${first.message ?? 'is invalid'}${typeof extra === 'string' ? ` (\`${extra}\`)` : ''}`;
}

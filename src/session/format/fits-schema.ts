/**
 * Whether a value fits one of chatkeep's own JSON Schemas (the subset they use: type, enum,
 * const, required, properties, additionalProperties, items, pattern, minimum, oneOf), checked
 * synchronously on the model's values. It lets a stored event be held to exactly the rules its
 * effect in the snapshot will be held to, one message at a time, without loading the standalone
 * validator (which checks whole documents). A `Date` stands for the ISO string it is written as.
 */
import { isObject } from '../../util/is-object.js';

/** A JSON Schema of the subset above (the `as const` objects of schema.ts and message-codec.ts). */
export type Schema = { readonly [key: string]: unknown };

/** Each schema pattern compiled once: it was compiled again for every value checked. */
const patterns = new Map<string, RegExp>();
function patternOf(source: string): RegExp {
  let pattern = patterns.get(source);
  if (pattern === undefined) patterns.set(source, (pattern = new RegExp(source, 'u')));
  return pattern;
}

/** Where `value` first breaks `schema` (`/role: not one of the allowed values`), or undefined when it fits. */
export function schemaMismatch(value: unknown, schema: Schema, at = ''): string | undefined {
  const given = value instanceof Date ? (Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString()) : value;
  if ('const' in schema && given !== schema.const) return `${at || '/'}: must be ${JSON.stringify(schema.const)}`;
  if (Array.isArray(schema.enum) && !schema.enum.includes(given)) return `${at || '/'}: not one of the allowed values`;
  if (schema.type !== undefined && !typeFits(given, schema.type)) return `${at || '/'}: must be of type ${String(schema.type)}`;
  if (typeof schema.pattern === 'string' && typeof given === 'string' && !patternOf(schema.pattern).test(given)) return `${at || '/'}: not in the expected form`;
  if (typeof schema.minimum === 'number' && typeof given === 'number' && given < schema.minimum) return `${at || '/'}: below ${schema.minimum}`;
  if (Array.isArray(schema.oneOf)) {
    const fitting = (schema.oneOf as Schema[]).filter((s) => schemaMismatch(given, s, at) === undefined).length;
    if (fitting !== 1) return `${at || '/'}: fits none of its forms`;
  }
  if (Array.isArray(given) && isObject(schema.items)) {
    for (let i = 0; i < given.length; i++) {
      const problem = schemaMismatch(given[i], schema.items, `${at}/${i}`);
      if (problem) return problem;
    }
  }
  if (isObject(given) && !(value instanceof Date)) {
    for (const key of (schema.required as string[] | undefined) ?? []) if (given[key] === undefined) return `${at}/${key}: missing`;
    const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
    for (const [key, item] of Object.entries(given)) {
      if (item === undefined) continue;
      const sub = Object.hasOwn(properties, key) ? properties[key] : isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
      const problem = sub && schemaMismatch(item, sub, `${at}/${key}`);
      if (problem) return problem;
    }
  }
  return undefined;
}

function typeFits(value: unknown, type: unknown): boolean {
  if (Array.isArray(type)) return type.some((t) => typeFits(value, t));
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return true;
  }
}

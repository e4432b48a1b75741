/** True for a plain JSON object (not null, not an array): what a decoded record or option bag must be. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

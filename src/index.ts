/**
 * chatkeep's embeddable session manager. Placeholder: the library issue fills this in.
 */
export * from './session/types.js';
export * from './session/errors.js';

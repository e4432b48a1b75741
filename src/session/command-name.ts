/**
 * `openSessions({ commandName })` (docs/design.md §17): inside another program, an error that ends by
 * suggesting a command (`List sessions with: chatkeep sessions list --all`) names that program
 * instead of chatkeep. The manager is handed out behind a proxy that rewrites the message of each
 * `ChatkeepError` its calls throw or reject with; `suggests` keeps the arguments for a program
 * that words its own way back.
 */
import { ChatkeepError, withSuggestedCommand } from './errors.js';

/** `err`, its suggested command now run as `commandName ARGS`. */
export function named(err: unknown, commandName: string): unknown {
  if (err instanceof ChatkeepError && err.suggests) err.message = withSuggestedCommand(err, (args) => [commandName, ...args].join(' '));
  return err;
}

/** `target` with every error of its methods (thrown or rejected) suggesting commands of `commandName`. */
export function withCommandName<T extends object>(target: T, commandName: string): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        try {
          const result: unknown = Reflect.apply(value, object, args);
          return result instanceof Promise ? result.catch((err: unknown) => Promise.reject(named(err, commandName))) : result;
        } catch (err) {
          throw named(err, commandName);
        }
      };
    },
  });
}

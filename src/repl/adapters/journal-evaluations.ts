/**
 * What node:repl shows, journaled: each complete input and what it printed, the value as
 * `inspect` shows it or the `Uncaught …` lines of an error. Node's default eval hands a thrown
 * error, an unknown name and an awaited rejection to the REPL's own domain instead of calling
 * back, and a rejection nobody awaited arrives there later: those lines are taken from the
 * domain, as the REPL writes them.
 */
import type { EventEmitter } from 'node:events';
import { inspect } from 'node:util';
import { Recoverable, type REPLEval, type REPLServer } from 'node:repl';
import type { NewMessage } from '../../session/api/data.js';
import type { SessionController } from '../controller.js';

type InTurn = (work: () => Promise<void>) => void;

/**
 * Wraps the server's `eval`: once a complete input is evaluated, it and what it prints are
 * appended, in turn with the commands, before the REPL prints it (an error sent to the domain:
 * right after, as the domain prints it at once).
 */
export function journalEvaluations(server: REPLServer, controller: SessionController, inTurn: InTurn): void {
  const evaluate = server.eval;
  const store = (...messages: NewMessage[]): void => inTurn(async () => void (await controller.append(...messages)));
  // The input being evaluated now, or whose awaited promise has not settled: an error the domain
  // gets is its answer. Cleared once answered.
  let open: { typed: string } | undefined;
  const journaled: REPLEval = function (this: REPLServer, code, context, file, callback) {
    const typed = code.trim();
    const entry = { typed };
    open = typed === '' ? undefined : entry;
    evaluate.call(this, code, context, file, (err, result) => {
      // A Recoverable error asks for more lines: the input is not complete yet.
      if (typed === '' || err instanceof Recoverable) return callback(err, result);
      if (open === entry) open = undefined;
      const answer = err ? `Uncaught ${err instanceof Error ? `${err.name}: ${err.message}` : inspect(err)}` : inspect(result);
      // The REPL prints the result once called back: stored first, so what is shown survives a kill -9.
      inTurn(async () => {
        try {
          await controller.append({ role: 'user', content: typed }, { role: 'assistant', content: answer });
        } finally {
          callback(err, result);
        }
      });
    });
  };
  // The server calls `this.eval` for every input: the field is read-only in the types only.
  (server as { eval: REPLEval }).eval = journaled;

  // The REPL's own domain (a field Node has always had, not in its types): it prints the error
  // in one write between a listener put first and one put last.
  const domain = (server as unknown as { _domain?: EventEmitter })._domain;
  if (!domain) return;
  const output = server.output as NodeJS.WritableStream & { write(chunk: unknown, ...rest: unknown[]): boolean };
  const write = output.write;
  let printed: string | undefined;
  output.write = function (this: NodeJS.WritableStream, chunk: unknown, ...rest: unknown[]) {
    if (printed === '') printed = String(chunk);
    return write.call(this, chunk, ...rest);
  } as typeof output.write;
  domain.prependListener('error', () => void (printed = ''));
  domain.on('error', () => {
    const answer = printed?.trimEnd();
    printed = undefined;
    if (!answer) return;
    const typed = open?.typed;
    open = undefined;
    store(...(typed !== undefined ? [{ role: 'user' as const, content: typed }] : []), { role: 'assistant', content: answer });
  });
}

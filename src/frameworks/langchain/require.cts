/**
 * `require('chatkeep/langchain')` from a CommonJS host. The ES entry (index.ts) waits for
 * `@langchain/core` with a top-level await to name it when it is missing, and require() cannot
 * load a module that waits; so this entry checks for the package first, synchronously, and then
 * requires the history itself (an ES module without a top-level await, which Node 20.19 and later
 * load through require()).
 */
import type * as ChatHistory from './chat-history.js';
import errors = require('../../session/api/errors.js');

function load(): typeof ChatHistory {
  try {
    require.resolve('@langchain/core/chat_history');
  } catch {
    throw new errors.MissingPackageError('@langchain/core', 'chatkeep/langchain');
  }
  return require('./chat-history.js') as typeof ChatHistory;
}

export = load();

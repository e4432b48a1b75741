/** LangGraph's checkpointer suite on the file store (a data home per checkpointer). */
import { validateOn } from './langgraph-validation.js';

validateOn('chatkeep/langgraph (file store)', () => Promise.resolve({}));

/** LangGraph's checkpointer suite on PostgreSQL (a database of its own per checkpointer). */
import { inject } from 'vitest';
import { createDatabase } from '../support/postgres.js';
import { validateOn } from './langgraph-validation.js';

validateOn('chatkeep/langgraph (PostgreSQL)', async () => ({ store: await createDatabase(inject('postgresAdminUrl')) }));

/** The store contract against the memory store (a fresh backing per test), as unstorage runs its memory driver. */
import { memoryBacking } from './memory-backing.js';
import { storeContract } from './store.contract.js';

storeContract('memory', async () => memoryBacking());

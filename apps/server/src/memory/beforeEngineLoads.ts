import { setEngineAllocatorDefaults } from './engineAllocator.js';

/**
 * Imported first by the CLI, for its side effect: the engine allocator's
 * options are in the environment before any import loads the engine.
 */
setEngineAllocatorDefaults();

/**
 * The embedded engine's allocator (chDB links its own jemalloc) keeps pages
 * it has freed for 5 s before giving them back to the system. An insert of a
 * drained batch frees a few hundred MiB at once, so that retention shows in
 * the server's resident memory without being counted by the engine's memory
 * tracker. Half a second gives most of it back sooner for a few % more CPU per insert
 * (a value of 0 frees at once, for more CPU per insert).
 */
export const ENGINE_MALLOC_CONF = 'dirty_decay_ms:500';

/**
 * Sets the engine allocator's options (`JE_MALLOC_CONF`, read once, when the
 * engine's library loads) unless the operator set them: call it before the
 * engine is imported.
 */
export function setEngineAllocatorDefaults(env: NodeJS.ProcessEnv = process.env): void {
  env.JE_MALLOC_CONF ??= ENGINE_MALLOC_CONF;
}

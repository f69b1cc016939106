/**
 * The runtime (store, chain client, limiter) and the model provider, imported by the first request
 * that needs them, so that loading the route table (at build, in tests, for the OpenAPI document)
 * opens nothing; and kept, so later requests do not go through the module loader again (with the
 * server bundle split into chunks, each `import()` is a real one).
 */
let runtime: Promise<typeof import('../services/runtime.ts')> | undefined;
let model: Promise<typeof import('../services/model/index.ts')> | undefined;

export const runtimeModule = () => (runtime ??= import('../services/runtime.ts'));
export const modelModule = () => (model ??= import('../services/model/index.ts'));

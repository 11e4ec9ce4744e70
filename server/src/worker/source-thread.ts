// A worker thread run from the sources (thread-module.ts): @jes packages resolve to their TypeScript sources, as
// under `node --conditions=jes-source`, then the thread's own module (the last argument) runs.
import { registerHooks } from 'node:module';

registerHooks({
  resolve: (specifier, context, next) =>
    next(specifier, { ...context, conditions: [...(context.conditions ?? []), 'jes-source'] }),
});
await import(process.argv.at(-1)!);

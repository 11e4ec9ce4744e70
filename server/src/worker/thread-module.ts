// The module a worker thread starts on. Installed, the package's build: the thread's own module. In a clone, the
// TypeScript sources, where a thread would not find @jes/contract's: a thread takes neither the launcher's resolve
// hook (scripts/launch.js) nor a condition its parent was not started with, so it starts on source-thread.ts, which
// adds the `jes-source` condition and then imports the thread's module.
const extension = import.meta.url.slice(import.meta.url.lastIndexOf('.'));

/** The URL to start a Worker on for the thread module `name` (beside this file), and the argv that goes with it. */
export function threadModule(name: string): { url: URL; argv: string[] } {
  const url = new URL(`./${name}${extension}`, import.meta.url);
  if (extension !== '.ts') return { url, argv: [] };
  return { url: new URL('./source-thread.ts', import.meta.url), argv: [url.href] };
}

// Debian's Chromium for the browser tests, driven by playwright-core (never a downloaded browser). In CI
// (.ci/run installs it) a missing browser is a failure; elsewhere the tests skip with the reason printed.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can (throws in CI). */
export function chromiumMissing(what: string): string | undefined {
  if (existsSync(executablePath)) return undefined;
  if (process.env.CI)
    throw new Error(`Chromium not found at ${executablePath}; .ci/run installs Debian's chromium package`);
  const reason = `no Chromium at ${executablePath} (apt-get install chromium, or set CHROMIUM_PATH)`;
  console.warn(`skipping ${what}: ${reason}`);
  return reason;
}

/** Headless Chromium kept off the network it cannot reach (its background services would try, many at a time). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

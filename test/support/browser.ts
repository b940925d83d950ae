import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (CI installs it with apt); CHROMIUM_PATH names another build. No download ever. */
export function chromiumPath(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  return candidates.find((p) => existsSync(p)) ?? null;
}

export const SKIP_MESSAGE =
  'browser tests skipped: no Chromium found. Install it with `apt-get install -y chromium` (Debian), or set CHROMIUM_PATH.';

export async function launchChromium(executablePath: string): Promise<Browser> {
  // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
}

/** Screenshots go here (ignored by git), to be looked at after a run. */
export function screenshotPath(name: string): string {
  const dir = path.resolve(__dirname, '..', '..', 'test-output');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}

/** Chromium for a suite's `before`, or the suite skipped saying how to install it. */
export async function chromiumOrSkip(suite: Mocha.Context): Promise<Browser> {
  const executable = chromiumPath();
  if (!executable) {
    console.warn(`    ${SKIP_MESSAGE}`);
    suite.skip();
  }
  return launchChromium(executable!);
}

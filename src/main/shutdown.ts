/**
 * Runs `stop` once on the first SIGINT or SIGTERM, or when the parent process goes away (npm
 * killed with SIGTERM does not pass it on), then exits; a second signal exits at once.
 */
export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = (reason: string) => {
    if (stopping) process.exit(130);
    stopping = true;
    console.error(`\n${reason}, stopping...`);
    stop().then(
      () => process.exit(0),
      (e) => {
        console.error('shutdown failed:', e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT received'));
  process.on('SIGTERM', () => shutdown('SIGTERM received'));
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && shutdown('parent process exited'), 1000).unref();
}

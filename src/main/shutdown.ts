/** Runs `stop` once on the first SIGINT or SIGTERM, then exits; a second signal exits at once. */
export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    console.error(`\n${signal} received, stopping...`);
    stop().then(
      () => process.exit(0),
      (e) => {
        console.error('shutdown failed:', e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

// How a `jes-server` process stops. SIGTERM (what an orchestrator sends): with JES_DRAIN_SECONDS, drain first,
// readiness 503 while requests are still served (a worker: claims go on), so a load balancer takes the process out
// before its connections are cut; then close. SIGINT (Ctrl-C), or a second signal during the drain: close at once.
// Exit 0 once closed, 1 if closing failed.

export interface Stoppable {
  drain(): void;
  close(): Promise<void>;
}

export function stopOnSignals(running: Stoppable, drainSeconds: number, say = console.log): void {
  let closing = false;
  let drainTimer: NodeJS.Timeout | undefined;
  const close = (signal: string) => {
    clearTimeout(drainTimer);
    drainTimer = undefined;
    if (closing) return;
    closing = true;
    say(`${signal}: shutting down`);
    running.close().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (drainTimer || closing || signal !== 'SIGTERM' || drainSeconds === 0) return close(signal);
    running.drain();
    say(`SIGTERM: draining for ${drainSeconds} s (not ready, still serving), then shutting down`);
    drainTimer = setTimeout(() => close('SIGTERM'), drainSeconds * 1000);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

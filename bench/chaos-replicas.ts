/**
 * Replicas mode of `npm run chaos`: two API and two worker processes behind one address (a
 * round-robin proxy, as a load balancer), each killed with SIGKILL and started again in turn while
 * the payments go on, so at every moment some process of each kind is down or coming back. No
 * state lives in one process: whatever a killed process held must be finished by the others.
 */
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../src/devstack/process';
import { killProcess, startGatewayProcess, type ChaosStack } from './chaos-stack';
import { startRoundRobinProxy } from './support/round-robin-proxy';

interface Replica {
  entry: 'api' | 'worker';
  index: number;
  apiPort?: number;
  child: ChildProcess;
  generation: number;
}

export interface Replicas {
  /** The one address merchants call. */
  url: string;
  describe(): string;
  /**
   * Kills each process in turn (api 1, worker 1, api 2, worker 2, ...) and starts it again,
   * `intervalMs` after the previous one is back. Returns the kills made.
   */
  killInTurn(intervalMs: number, say: (line: string) => void): Promise<number>;
  /** Connections the proxy handed to each API replica. */
  connections(): string;
  close(): Promise<void>;
}

const nameOf = (r: Pick<Replica, 'entry' | 'index' | 'generation'>) => `${r.entry}-${r.index}.${r.generation}`;

export async function startReplicas(stack: ChaosStack, count: number): Promise<Replicas> {
  const apiPorts: number[] = [];
  for (let i = 0; i < count; i++) apiPorts.push(await freePort());
  const start = async (r: Omit<Replica, 'child'>): Promise<Replica> => ({
    ...r,
    child: await startGatewayProcess(stack, r.entry, nameOf(r), r.apiPort),
  });
  const replicas = await Promise.all(
    Array.from({ length: count }).flatMap((_, i) => [
      start({ entry: 'api', index: i + 1, apiPort: apiPorts[i]!, generation: 1 }),
      start({ entry: 'worker', index: i + 1, generation: 1 }),
    ]),
  );
  const proxy = await startRoundRobinProxy(apiPorts);
  return {
    url: proxy.url,
    describe: () =>
      replicas.map((r) => `${r.entry} ${r.index} (pid ${r.child.pid}${r.apiPort ? `, port ${r.apiPort}` : ''})`).join(', '),
    async killInTurn(intervalMs, say) {
      let kills = 0;
      for (const [i, r] of replicas.entries()) {
        await killProcess(r.child);
        kills++;
        const killedAt = Date.now();
        const next = await start({ ...r, generation: r.generation + 1 });
        replicas[i] = next;
        say(
          `killed ${r.entry} ${r.index} (SIGKILL, pid ${r.child.pid}); back as pid ${next.child.pid} ${Date.now() - killedAt} ms later`,
        );
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
      return kills;
    },
    connections: () => [...proxy.connections].map(([port, n]) => `${n} to :${port}`).join(', '),
    close: () => proxy.close(),
  };
}

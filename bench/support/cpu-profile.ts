import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a process spent its CPU per request, in µs of self time, by package (or gateway file) and by function. */
export interface ProfileSummary {
  /** The process's CPU per request (measured), which the profile's shares divide. */
  totalUs: number;
  byGroup: { group: string; usPerRequest: number }[];
  byFunction: { fn: string; usPerRequest: number }[];
}

/**
 * Summarises a CPU profile (the inspector's, as `node --cpu-prof` writes it): each sample goes to
 * the function it was in (self time), grouped by npm package, by the gateway's own file, or by
 * Node's internals. The sampler counts wall time between samples, which a loaded machine stretches
 * (a process waiting for a core is charged to where it stopped), so each item is reported as its
 * share of the samples times the CPU per request measured from the process (`cpuUsPerRequest`).
 * Idle time and the profiler's own work (stopping and serialising) are left out.
 */
export function summariseCpuProfile(file: string, cpuUsPerRequest: number): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const profiler = new Set<number>();
  const markProfiler = (n: ProfileNode, inside: boolean) => {
    const here = inside || n.callFrame.url === 'node:inspector';
    if (here) profiler.add(n.id);
    for (const c of n.children ?? []) markProfiler(byId.get(c)!, here);
  };
  markProfiler(profile.nodes[0]!, false);
  const groups = new Map<string, number>();
  const fns = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const us = profile.timeDeltas[i] ?? 0;
    const group = groupOf(node.callFrame);
    if (group === '(idle)' || profiler.has(id)) return;
    total += us;
    groups.set(group, (groups.get(group) ?? 0) + us);
    const fn = `${node.callFrame.functionName || '(anonymous)'} ${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
    fns.set(fn, (fns.get(fn) ?? 0) + us);
  });
  const perRequest = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).map(([k, us]) => [k, Math.round((us / total) * cpuUsPerRequest * 10) / 10] as const);
  return {
    totalUs: Math.round(cpuUsPerRequest),
    byGroup: perRequest(groups).map(([group, usPerRequest]) => ({ group, usPerRequest })),
    byFunction: perRequest(fns)
      .slice(0, 40)
      .map(([fn, usPerRequest]) => ({ fn, usPerRequest })),
  };
}

function groupOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/').slice(0, 2).join('/')}`;
  return shortUrl(url);
}

const shortUrl = (url: string) =>
  url.replace(/^file:\/\/.*?\/(src|bench|activities|workflows)\//, '$1/').replace(/^.*node_modules\//, '');

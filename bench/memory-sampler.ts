import { readFileSync } from 'node:fs';
import type { Child } from './common';

/** One look at the service's memory: its RSS from /proc, its V8 heap from the Prometheus metrics (MB). */
export interface MemorySample {
  /** Seconds since sampling started. */
  at: number;
  rss: number;
  heapUsed?: number;
  heapTotal?: number;
  newSpace?: number;
  /** The young generation's size (both semi-spaces): what `--max-semi-space-size` bounds. */
  newSpaceTotal?: number;
  oldSpace?: number;
  codeSpace?: number;
  external?: number;
}

export interface MemoryFigures {
  samples: MemorySample[];
  /** The sample with the largest RSS. */
  peak: MemorySample;
  /** The last sample. */
  last: MemorySample;
}

const MB = 1024 * 1024;

function rssMb(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** A gauge of the Prometheus text, in MB (`finapi_nodejs_heap_space_size_used_bytes{space="new"}`). */
function gauge(text: string, name: string, label = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`finapi_${name}${label ? `{${label}` : ' '}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) / MB : undefined;
}

/**
 * Samples the service's memory every `everyMs` while the runs go on (issue 48's RSS target): RSS each time, the heap's
 * spaces (used), heap total and external memory from its metrics (as the administrator) every fifth time.
 */
export function sampleMemory(service: Child, token: string, everyMs = 1000): { stop(): Promise<MemoryFigures> } {
  const started = Date.now();
  const samples: MemorySample[] = [];
  let heap: Omit<MemorySample, 'at' | 'rss'> = {};
  let tick = 0;
  let busy = false;
  const take = async () => {
    if (busy) return;
    busy = true;
    try {
      if (tick++ % 5 === 0) {
        const res = await fetch(`${service.url}/api/v1/actuator/prometheus`, { headers: { authorization: `Bearer ${token}` } });
        if (res.ok) {
          const text = await res.text();
          heap = {
            heapUsed: gauge(text, 'nodejs_heap_size_used_bytes'),
            heapTotal: gauge(text, 'nodejs_heap_size_total_bytes'),
            newSpace: gauge(text, 'nodejs_heap_space_size_used_bytes', 'space="new"'),
            newSpaceTotal: gauge(text, 'nodejs_heap_space_size_total_bytes', 'space="new"'),
            oldSpace: gauge(text, 'nodejs_heap_space_size_used_bytes', 'space="old"'),
            codeSpace: gauge(text, 'nodejs_heap_space_size_used_bytes', 'space="code"'),
            external: gauge(text, 'nodejs_external_memory_bytes'),
          };
        }
      }
      const rss = rssMb(service.pid);
      if (rss !== undefined) samples.push({ at: (Date.now() - started) / 1000, rss, ...heap });
    } catch {
      // A look that failed (the service busy or stopping) is skipped.
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void take(), everyMs);
  void take();
  return {
    async stop() {
      clearInterval(timer);
      await take();
      const peak = samples.reduce((a, b) => (b.rss > a.rss ? b : a), samples[0]);
      return { samples, peak, last: samples[samples.length - 1] };
    },
  };
}

/** The table rows of a sampling: after set-up (the first sample), at the RSS peak, at the end. */
export function memoryRows(figures: MemoryFigures): string[][] {
  const mb = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(0));
  const row = (name: string, s: MemorySample) => [
    name,
    s.at.toFixed(0),
    mb(s.rss),
    mb(s.heapUsed),
    mb(s.heapTotal),
    mb(s.newSpace),
    mb(s.newSpaceTotal),
    mb(s.oldSpace),
    mb(s.codeSpace),
    mb(s.external),
  ];
  return [
    [
      'service memory (MB)',
      's',
      'RSS',
      'heap used',
      'heap total',
      'new space used',
      'new space size',
      'old space used',
      'code space used',
      'external',
    ],
    row('first sample (before the runs)', figures.samples[0]),
    row('RSS peak', figures.peak),
    row('last sample (after the runs)', figures.last),
  ];
}

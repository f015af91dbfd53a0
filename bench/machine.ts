import { readFileSync } from 'node:fs';
import os from 'node:os';

/** The machine a benchmark ran on. */
export interface Machine {
  /** CPU model name (from /proc/cpuinfo where available). */
  cpu: string;
  /** Logical cores available to this process. */
  cores: number;
  /** Vector extensions the CPU reports (x86 flags), e.g. ["avx2", "avx512f"]. */
  simd: string[];
  /** Total memory, bytes. */
  memory: number;
  node: string;
  os: string;
}

function cpuinfo(): { model?: string; flags: string[] } {
  try {
    const text = readFileSync('/proc/cpuinfo', 'utf8');
    const model = /^model name\s*:\s*(.+)$/m.exec(text)?.[1]?.trim();
    const flags = /^flags\s*:\s*(.+)$/m.exec(text)?.[1]?.trim().split(/\s+/) ?? [];
    return { model, flags };
  } catch {
    return { flags: [] };
  }
}

const SIMD_FLAGS = ['sse4_2', 'avx', 'avx2', 'fma', 'avx512f', 'avx512vl', 'asimd', 'sve'];

/** Describe this machine: CPU model, cores, vector extensions, memory, Node and OS. */
export function describeMachine(): Machine {
  const info = cpuinfo();
  const cpus = os.cpus();
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length;
  return {
    cpu: info.model ?? cpus[0]?.model ?? 'unknown CPU',
    cores,
    simd: SIMD_FLAGS.filter((f) => info.flags.includes(f)),
    memory: os.totalmem(),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** One line: "AMD EPYC, 2 cores (avx2, avx512f), 23.5 GiB, Node v20.20.2, Linux 6.1 x64". */
export function machineLine(m: Machine): string {
  const simd = m.simd.length ? ` (${m.simd.join(', ')})` : '';
  return `${m.cpu}, ${m.cores} cores${simd}, ${(m.memory / 2 ** 30).toFixed(1)} GiB, Node ${m.node}, ${m.os}`;
}

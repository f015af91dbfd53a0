import { readFileSync } from 'node:fs';
import os from 'node:os';

/** The machine a benchmark ran on. */
export interface Machine {
  /** CPU model name (from /proc/cpuinfo where available). */
  cpu: string;
  /**
   * x86 family, model and stepping, e.g. "family 26 model 2 stepping 1" (a virtual machine may
   * name its CPU only "AMD EPYC": these tell its generation); empty where unknown.
   */
  cpuId: string;
  /** Logical cores available to this process. */
  cores: number;
  /** Vector extensions the CPU reports (x86 flags), e.g. ["avx2", "avx512f"]. */
  simd: string[];
  /** Cache sizes in bytes (L2 per core, the whole L3); 0 where unknown. */
  cache: { l2: number; l3: number };
  /** Total memory, bytes. */
  memory: number;
  node: string;
  os: string;
}

function cpuinfo(): { model?: string; id: string; flags: string[] } {
  try {
    const text = readFileSync('/proc/cpuinfo', 'utf8');
    const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.+)$`, 'm').exec(text)?.[1]?.trim();
    const family = field('cpu family');
    const model = field('model');
    const stepping = field('stepping');
    const id =
      family && model ? `family ${family} model ${model}${stepping ? ` stepping ${stepping}` : ''}` : '';
    const flags = field('flags')?.split(/\s+/) ?? [];
    return { model: field('model name'), id, flags };
  } catch {
    return { id: '', flags: [] };
  }
}

/** Size in bytes of cpu0's unified cache at `level` (2 or 3), from sysfs; 0 where unknown. */
function cacheSize(level: number): number {
  for (let i = 0; i < 8; i++) {
    const dir = `/sys/devices/system/cpu/cpu0/cache/index${i}`;
    try {
      if (Number(readFileSync(`${dir}/level`, 'utf8')) !== level) continue;
      const m = /^(\d+)([KMG]?)/.exec(readFileSync(`${dir}/size`, 'utf8').trim());
      if (!m) return 0;
      return Number(m[1]) * ({ K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[m[2]] ?? 1);
    } catch {
      return 0;
    }
  }
  return 0;
}

const SIMD_FLAGS = ['sse4_2', 'avx', 'avx2', 'fma', 'avx512f', 'avx512vl', 'asimd', 'sve'];

/** Describe this machine: CPU model, cores, vector extensions, caches, memory, Node and OS. */
export function describeMachine(): Machine {
  const info = cpuinfo();
  const cpus = os.cpus();
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length;
  return {
    cpu: info.model ?? cpus[0]?.model ?? 'unknown CPU',
    cpuId: info.id,
    cores,
    simd: SIMD_FLAGS.filter((f) => info.flags.includes(f)),
    cache: { l2: cacheSize(2), l3: cacheSize(3) },
    memory: os.totalmem(),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

const size = (b: number) => (b >= 1024 ** 2 ? `${b / 1024 ** 2} MiB` : `${b / 1024} KiB`);

/**
 * One line: "AMD EPYC (family 26 model 2 stepping 1), 2 cores (avx2, avx512f), L2 1 MiB per core,
 * L3 32 MiB, 23.5 GiB, Node v20.20.2, Linux 6.1 x64".
 */
export function machineLine(m: Machine): string {
  const id = m.cpuId ? ` (${m.cpuId})` : '';
  const simd = m.simd.length ? ` (${m.simd.join(', ')})` : '';
  const l2 = m.cache.l2 ? `, L2 ${size(m.cache.l2)} per core` : '';
  const l3 = m.cache.l3 ? `, L3 ${size(m.cache.l3)}` : '';
  return `${m.cpu}${id}, ${m.cores} cores${simd}${l2}${l3}, ${(m.memory / 2 ** 30).toFixed(1)} GiB, Node ${m.node}, ${m.os}`;
}

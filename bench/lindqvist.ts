/**
 * Published figures of the Lindqvist thesis (boids on one core, 8 threads and a GPU compute
 * shader; all-pairs, wrap-around world), appendix A. Source: ../shared/seeds/
 * lindqvist-boids-gpu-vs-cpu-thesis.txt. Each figure is the average of three 60-second runs.
 */
export const LINDQVIST = {
  source: 'Lindqvist thesis (boids on CPU and GPU), appendix A',
  /** Flock sizes of the experiment. */
  sizes: [64, 512, 4096],
  /** Table A.2: average logic update time per frame, milliseconds. */
  updateMs: {
    singleCore: [0.84141, 4.21427, 241.83176],
    multiCore: [9.391, 10.10588, 33.93527],
    gpgpu: [1.32975, 1.5501, 7.7305],
  },
  /** Table A.1: average frames per second (rendering included). */
  fps: {
    singleCore: [688, 225, 5],
    multiCore: [104, 97, 30],
    gpgpu: [541, 487, 121],
  },
  /** Section 3.3.1, tables 3.1 and 3.2. */
  machine: {
    cpu: 'Intel Core i7-6700HQ @ 2.6 GHz (4 cores, 8 threads, 6 MB cache)',
    gpu: 'NVIDIA GeForce GTX 950M (640 CUDA cores, 2 GB GDDR3)',
    system: 'Windows 10 Home x64, 8 GB RAM, C++ built with Visual Studio (64-bit release)',
    multiCoreThreads: 8,
  },
} as const;

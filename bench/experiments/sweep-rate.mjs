// Throughput of a finished sweep from its runs table: runs/hour and agent-steps/s of the whole
// sweep (wall clock of `murmur sweep`, from its --json summary) against the runs' own stepping rate
// (agent-steps/s while stepping, measured inside each worker while every core was busy).
//   node bench/experiments/sweep-rate.mjs OUT_DIR SUMMARY.json
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, summaryPath] = process.argv.slice(2);
const summary = JSON.parse(readFileSync(summaryPath, 'utf8'));
const lines = readFileSync(join(dir, 'runs.csv'), 'utf8').trim().split('\n');
const header = lines[0].split(',');
const col = (name) => lines.slice(1).map((l) => Number(l.split(',')[header.indexOf(name)]));
const prey = col('prey');
const steps = col('steps');
const rates = col('agentStepsPerSec').sort((a, b) => a - b);
const median = rates[Math.floor(rates.length / 2)];
const agentSteps = prey.reduce((a, p, i) => a + p * steps[i], 0);
const wallS = summary.wallMs / 1000;
const sweepRate = agentSteps / wallS;
console.log(
  JSON.stringify({
    runs: prey.length,
    jobs: summary.jobs,
    wallS,
    runsPerHour: (prey.length / wallS) * 3600,
    agentStepsPerSec: sweepRate,
    perCore: sweepRate / summary.jobs,
    oneFlockPerCoreMedian: median,
    oneFlockPerCoreP10: rates[Math.floor(rates.length / 10)],
    oneFlockPerCoreP90: rates[Math.floor((rates.length * 9) / 10)],
    ratio: sweepRate / summary.jobs / median,
  }),
);

/**
 * `npm run fuzz`: the fuzz tests of test/fuzz with many more cases than CI runs (FUZZ_RUNS, default
 * 20000) from a fresh seed, printed first so a failure can be replayed with FUZZ_SEED=<seed>.
 */
import { spawnSync } from 'node:child_process';

const runs = process.env.FUZZ_RUNS ?? '20000';
const seed = process.env.FUZZ_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
process.stdout.write(`fuzz: ${runs} runs, seed ${seed} (replay: FUZZ_SEED=${seed} npm run fuzz)\n`);
const child = spawnSync('npx', ['vitest', 'run', 'test/fuzz', '--testTimeout', '0'], {
	stdio: 'inherit',
	env: { ...process.env, FUZZ_RUNS: runs, FUZZ_SEED: seed },
});
process.exitCode = child.status ?? 1;

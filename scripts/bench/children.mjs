/**
 * Benchmarks that live in their own scripts (ranked search: scripts/bench-search.mjs; context
 * packs: scripts/bench-pack.mjs) run here as child processes, their output passed through; we
 * record exit status and wall time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';

/** The child benchmark scripts by job name. */
export const CHILD_BENCHES = {
	search: join(ROOT, 'scripts', 'bench-search.mjs'),
	pack: join(ROOT, 'scripts', 'bench-pack.mjs'),
	snapshot: join(ROOT, 'scripts', 'bench-snapshot.mjs'),
};

/** True when the job's script exists. */
export function hasChildBench(job) {
	return existsSync(CHILD_BENCHES[job]);
}

/** A runner for one child job: its defaults, stdio inherited; returns its status and wall time. */
export function childBench(job) {
	return () => {
		const script = CHILD_BENCHES[job];
		if (!existsSync(script)) return { ran: false, reason: `${script} not found` };
		const start = performance.now();
		// No node flags: each script sets up its own (e.g. --expose-gc and a larger heap for 50k notes).
		const child = spawnSync(process.execPath, [script], { cwd: ROOT, stdio: 'inherit' });
		const ms = Math.round(performance.now() - start);
		if (child.error) throw child.error;
		return { ran: true, script, exitCode: child.status, signal: child.signal, wallMs: ms };
	};
}

/**
 * Benchmarks that live in their own scripts (ranked search: scripts/bench-search.mjs; context
 * packs: scripts/bench-pack.mjs; warm starts: scripts/bench-snapshot.mjs) run here as child
 * processes, their output passed through; we record exit status and wall time, and read the
 * figures each one writes to bench-output/<job>.json for the table in docs/BENCHMARKS.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { OUT_DIR, ROOT } from './lib.mjs';

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

/** A runner for one child job: its defaults plus `args`, stdio inherited; returns its status, wall time and figures. */
export function childBench(job, args = []) {
	return () => {
		const script = CHILD_BENCHES[job];
		if (!existsSync(script)) return { ran: false, reason: `${script} not found` };
		const start = performance.now();
		const started = Date.now();
		// No node flags: each script sets up its own (e.g. --expose-gc and a larger heap for 50k notes).
		const child = spawnSync(process.execPath, [script, ...args], { cwd: ROOT, stdio: 'inherit' });
		const ms = Math.round(performance.now() - start);
		if (child.error) throw child.error;
		return {
			ran: true,
			script,
			exitCode: child.status,
			signal: child.signal,
			wallMs: ms,
			data: childData(job, started),
		};
	};
}

/**
 * The figures a child wrote to bench-output/<job>.json during this run. A child that finished
 * without writing them fails the bench: the table must never keep an old figure as if new.
 */
function childData(job, startedMs) {
	const file = join(OUT_DIR, `${job}.json`);
	if (!existsSync(file) || statSync(file).mtimeMs < startedMs - 1000)
		throw new Error(`${CHILD_BENCHES[job]} wrote no ${file} in this run: its figures cannot be read`);
	const data = JSON.parse(readFileSync(file, 'utf8'));
	return job === 'snapshot' ? data : data.result;
}

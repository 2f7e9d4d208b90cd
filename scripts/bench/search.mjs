/**
 * The ranked-search benchmark lives in scripts/bench-search.mjs (its own owner and output); here we
 * only run it as a child process, its output passed through, and record its exit status and time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';

/** Path of the ranked-search benchmark script. */
export const SEARCH_BENCH = join(ROOT, 'scripts', 'bench-search.mjs');

/** True when scripts/bench-search.mjs exists. */
export function hasSearchBench() {
	return existsSync(SEARCH_BENCH);
}

/** Run scripts/bench-search.mjs (its defaults) with stdio inherited; returns its status and wall time. */
export function benchSearch() {
	if (!hasSearchBench()) return { ran: false, reason: 'scripts/bench-search.mjs not found' };
	const start = performance.now();
	// No node flags: the script sets up its own (--expose-gc and a larger heap for its 50k vault).
	const child = spawnSync(process.execPath, [SEARCH_BENCH], { cwd: ROOT, stdio: 'inherit' });
	const ms = Math.round(performance.now() - start);
	if (child.error) throw child.error;
	return { ran: true, script: 'scripts/bench-search.mjs', exitCode: child.status, signal: child.signal, wallMs: ms };
}

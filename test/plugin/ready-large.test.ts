// @vitest-environment happy-dom
/**
 * The plugin's time to "ready" and its memory on a large vault, and the longest stretch it holds
 * the main thread. A measurement, not a speed test: it runs only when VAULT_QUERY_PLUGIN_BENCH
 * names a vault folder (e.g. the generated 50k vault of scripts/gen-vault.mjs) and prints its
 * figures (docs/BENCHMARKS.md). The longest main-thread block is measured by a 1 ms heartbeat;
 * on a loaded machine it also counts time the process was not scheduled, so it is reported, not
 * asserted. Obsidian's metadata cache is filled before the plugin starts, as it is in Obsidian:
 * the plugin uses that cache. With VAULT_QUERY_PLUGIN_BENCH_GAPS naming a file, every gap over
 * 50 ms is written there with its end on the monotonic clock a `--cpu-prof` profile uses, so
 * `scripts/bench/profile-gaps.mjs` can say what ran in each.
 *
 * clock-ok-file: a measurement that prints its figures and asserts none (a benchmark run on demand).
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FakeApp } from './fake-app';
import { loadPlugin, settle } from './harness';

const VAULT = process.env.VAULT_QUERY_PLUGIN_BENCH;
const GAPS_FILE = process.env.VAULT_QUERY_PLUGIN_BENCH_GAPS;

/** Microseconds on the monotonic clock (the clock of a V8 CPU profile's timestamps). */
function monotonicUs(): number {
	return Number(process.hrtime.bigint() / 1000n);
}

/** Heap in MB after a collection when --expose-gc is on. */
function heapMb(): number {
	(globalThis as { gc?: () => void }).gc?.();
	return Math.round(process.memoryUsage().heapUsed / 1e6);
}

describe('plugin readiness on a large vault', () => {
	it.skipIf(VAULT === undefined)(
		'gets ready and builds its search index; prints time, memory and the longest main-thread block',
		async () => {
			const app = FakeApp.fromFolder(VAULT ?? '');
			app.indexAll();
			const notes = app.vault.getMarkdownFiles().length;
			const before = heapMb();
			// A heartbeat every millisecond: the longest gap between beats is the longest block.
			let last = performance.now();
			const gaps: number[] = [];
			let longestGap = 0;
			const gapEnds: { endUs: number; uptimeMs: number; ms: number }[] = [];
			const beat = window.setInterval(() => {
				const now = performance.now();
				longestGap = Math.max(longestGap, now - last);
				if (now - last > 50) {
					gaps.push(Math.round(now - last));
					gapEnds.push({ endUs: monotonicUs(), uptimeMs: process.uptime() * 1000, ms: now - last }); // uptimeMs: to match --trace-gc's times
				}
				last = now;
			}, 1);
			const started = performance.now();
			const plugin = await loadPlugin(app);
			app.layoutReady();
			await plugin.engine.whenReady();
			const ready = performance.now();
			await plugin.engine.searchIndex();
			const indexed = performance.now();
			await settle();
			window.clearInterval(beat);
			const after = heapMb();
			const longest = [...gaps].sort((a, b) => b - a);
			const figures = {
				notes,
				readyMs: Math.round(ready - started),
				searchIndexMs: Math.round(indexed - started),
				longestBlockMs: Math.round(longestGap),
				blocksOver50Ms: gaps.length,
				longestFiveMs: longest.slice(0, 5),
				heapBeforeMb: before,
				heapAfterMb: after,
			};
			process.stdout.write(`plugin on ${VAULT}: ${JSON.stringify(figures)}\n`);
			if (GAPS_FILE !== undefined) writeFileSync(GAPS_FILE, JSON.stringify(gapEnds));
			expect(plugin.engine.state).toBe('ready');
			plugin.unload();
		},
		1_200_000,
	);
});

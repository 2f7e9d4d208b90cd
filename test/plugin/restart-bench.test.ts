// @vitest-environment happy-dom
// clock-ok-file: a benchmark that writes its figures; it asserts no time, only that the restart restored instead of building.
/**
 * The plugin's restart with a saved search index, measured: `scripts/bench/plugin-restart.mjs`
 * runs this file with VAULT_QUERY_RESTART_BENCH naming a vault folder and
 * VAULT_QUERY_RESTART_BENCH_OUT a file for the figures (docs/BENCHMARKS.md). A measurement, not a
 * speed test: skipped without the variables, and it asserts only what must hold whatever the
 * machine's load (the second start restored the index, built nothing, answered the same).
 *
 * The first plugin starts over the folder on the fake app with an empty store (fake-indexeddb),
 * builds and saves; a second plugin starts over a fresh read of the same folder (the same vault
 * id, so the same database) — `VAULT_QUERY_RESTART_BENCH_CHANGED` notes edited meanwhile — and
 * the time from its layout-ready to its first search answered is the restart's. A 1 ms heartbeat
 * measures the longest block of the main thread (on a loaded machine it also counts time the
 * process was not scheduled).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { SearchIndex } from '../../src/core/search/search-index';
import { FakeApp } from './fake-app';
import { loadPlugin, settle } from './harness';
import { useNodeIndexWorker } from './node-index-worker';

const VAULT = process.env.VAULT_QUERY_RESTART_BENCH;
const OUT = process.env.VAULT_QUERY_RESTART_BENCH_OUT;
const CHANGED = Number(process.env.VAULT_QUERY_RESTART_BENCH_CHANGED ?? '0');
const QUERY = 'the project notes';
/** Build in the index worker (a Node worker thread running the bundle main.js inlines), not on the main thread. */
const WORKER = process.env.VAULT_QUERY_RESTART_BENCH_WORKER === '1';

/**
 * CPU milliseconds of this process's main thread (/proc: its task has the process's id) and of
 * the whole process (the worker thread included); the thread's is null where it cannot be read.
 */
function cpuMs(): { main: number | null; all: number } {
	const { user, system } = process.cpuUsage();
	let main: number | null = null;
	try {
		if (isMainThread) {
			const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			main = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in ticks of 10 ms
		}
	} catch {
		main = null;
	}
	return { main, all: (user + system) / 1000 };
}

/** Gaps between 1 ms beats: the longest (and when it ended, ms after `reset`), and how many were over 50 ms, since `reset`. */
function heartbeat(): {
	reset(): void;
	stop(): void;
	longest: () => number;
	longestAt: () => number;
	over50: () => number;
} {
	let start = performance.now();
	let last = start;
	let longest = 0;
	let longestAt = 0;
	let over = 0;
	const beat = window.setInterval(() => {
		const now = performance.now();
		if (now - last > longest) {
			longest = now - last;
			longestAt = now - start;
		}
		if (now - last > 50) over++;
		last = now;
	}, 1);
	return {
		reset: () => {
			start = performance.now();
			last = start;
			longest = 0;
			longestAt = 0;
			over = 0;
		},
		stop: () => window.clearInterval(beat),
		longest: () => Math.round(longest),
		longestAt: () => Math.round(longestAt),
		over50: () => over,
	};
}

/** The folder read as Obsidian has it at start: every note parsed into the metadata cache. */
function openVault(): FakeApp {
	const app = FakeApp.fromFolder(VAULT ?? '', { appId: 'restart-bench' });
	app.indexAll();
	return app;
}

describe('plugin restart with a saved index', () => {
	it.skipIf(VAULT === undefined)(
		'builds and saves, then restarts from the saved index; writes the figures',
		async () => {
			const undoWorker = WORKER ? await useNodeIndexWorker() : null;
			const build = vi.spyOn(SearchIndex, 'build');
			const beat = heartbeat();
			// First start: an empty store, so it builds, then saves.
			const app = openVault();
			const notes = app.vault.getMarkdownFiles();
			const markdownBytes = notes.reduce((n, f) => n + f.stat.size, 0);
			const first = await loadPlugin(app);
			beat.reset();
			const cpu0 = cpuMs();
			let t0 = performance.now();
			app.layoutReady();
			await first.engine.searchIndex();
			const firstBuildMs = performance.now() - t0;
			t0 = performance.now();
			await first.engine.savesSettled();
			const saveMs = performance.now() - t0;
			const cpu1 = cpuMs();
			const buildBlocks = { longest: beat.longest(), at: beat.longestAt(), over50: beat.over50() };
			const before = await first.engine.search(QUERY, { limit: 10 });
			const summary = await first.engine.savedSummary();
			first.unload();
			expect(build).toHaveBeenCalledTimes(WORKER ? 0 : 1); // in the worker: no build on the main thread

			// Second start over a fresh read of the folder (the same vault id), some notes edited meanwhile.
			const again = openVault();
			const edited = again.vault
				.getMarkdownFiles()
				.map((f) => f.path)
				.sort()
				.slice(0, CHANGED);
			for (const path of edited) {
				const text = `${again.vault.textOf(path) ?? ''}\nEdited while Obsidian was closed.\n`;
				again.vault.setText(path, text);
				again.metadataCache.parse(path, text);
			}
			const second = await loadPlugin(again);
			await settle();
			beat.reset();
			t0 = performance.now();
			again.layoutReady();
			// The restore (to the index installed) and the first search over it, their blocks apart.
			await second.engine.searchIndex();
			await settle();
			const restoreBlocks = { longest: beat.longest(), over50: beat.over50() };
			beat.reset();
			const answer = await second.engine.search(QUERY, { limit: 10 });
			const restartReadyMs = performance.now() - t0;
			await settle(); // the heartbeat due during the search's block beats first
			const searchBlock = beat.longest();
			await second.engine.settled();
			const reconcileMs = performance.now() - t0;
			await settle();
			const restartBlocks = {
				longest: Math.max(restoreBlocks.longest, beat.longest()),
				over50: restoreBlocks.over50 + beat.over50(),
			};
			beat.stop();
			expect(build).toHaveBeenCalledTimes(WORKER ? 0 : 1); // restored, not rebuilt
			expect(second.engine.saved?.log).toContain(`restored (${CHANGED} notes to reconcile)`);
			if (CHANGED === 0) expect(answer.results).toEqual(before.results);
			const figures = {
				vault: VAULT,
				notes: notes.length,
				markdown_bytes: markdownBytes,
				build_path: WORKER ? 'worker' : 'main thread',
				first_build_ms: Math.round(firstBuildMs),
				save_ms: Math.round(saveMs),
				saved_bytes: summary?.bytes ?? 0,
				changed_notes: CHANGED,
				restart_ready_ms: Math.round(restartReadyMs),
				restart_status: answer.status,
				reconcile_done_ms: Math.round(reconcileMs),
				longest_block_ms: Math.max(buildBlocks.longest, restartBlocks.longest),
				blocks_over_50: buildBlocks.over50 + restartBlocks.over50,
				first_start: {
					longest_block_ms: buildBlocks.longest,
					// when the longest block ended, ms after layout-ready (against first_build_ms: during the build or after)
					longest_block_at_ms: buildBlocks.at,
					blocks_over_50: buildBlocks.over50,
					// layout-ready → built and saved: CPU of the main thread, and of the process (the worker's included)
					main_thread_cpu_ms:
						cpu1.main === null || cpu0.main === null ? null : Math.round(cpu1.main - cpu0.main),
					process_cpu_ms: Math.round(cpu1.all - cpu0.all),
				},
				restart: {
					longest_block_ms: restartBlocks.longest,
					blocks_over_50: restartBlocks.over50,
					restore_longest_block_ms: restoreBlocks.longest,
					restore_blocks_over_50: restoreBlocks.over50,
					first_search_block_ms: searchBlock,
				},
			};
			if (OUT !== undefined) writeFileSync(OUT, JSON.stringify(figures));
			second.unload();
			build.mockRestore();
			undoWorker?.();
		},
		1_200_000,
	);
});

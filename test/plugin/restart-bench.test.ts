// @vitest-environment happy-dom
// clock-ok-file: a benchmark that writes its figures; it asserts no time, only that the restart restored instead of building.
/**
 * The plugin's restart with a saved search index, measured: `scripts/bench/plugin-restart.mjs`
 * runs this file with VAULT_QUERY_RESTART_BENCH naming a vault folder and
 * VAULT_QUERY_RESTART_BENCH_OUT a file for the figures (docs/BENCHMARKS.md). A measurement, not a
 * speed test: skipped without the variables, and it asserts only what must hold whatever the
 * machine's load (the second start restored the index, built nothing, answered the same).
 *
 * The fake app reads a note's text from the folder at each `cachedRead`, waiting on the disk off the
 * main thread, as Obsidian does for a note that is not open (fake-app.ts): holding the 50k notes'
 * ~400 MB of text on the heap, as it once did, made every full garbage collection of the plugin's
 * main thread mark it too.
 *
 * The first plugin starts over the folder on the fake app with an empty store (fake-indexeddb),
 * builds and saves; a second plugin starts over a fresh read of the same folder (the same vault
 * id, so the same database) — `VAULT_QUERY_RESTART_BENCH_CHANGED` notes edited meanwhile — and
 * the time from its layout-ready to its first search answered is the restart's. A 1 ms heartbeat
 * measures the longest block of the main thread (on a loaded machine it also counts time the
 * process was not scheduled); the restart's CPU time is given beside it (`*_cpu_ms`: the process's
 * user + system), which a loaded machine inflates far less.
 *
 * `VAULT_QUERY_RESTART_BENCH_STORE=FILE`: the first start's saved store is written to FILE, and a
 * later run that finds FILE puts it back and skips the first start (its figures are then null) —
 * so the restart can be measured again and again without building a large vault each time; delete
 * FILE after a change to what is saved. `VAULT_QUERY_RESTART_BENCH_PROFILE=DIR`: a CPU profile of
 * the restart from layout-ready to the reconcile done is written to DIR (`restart.cpuprofile`), and
 * one of the same search again once all is settled (after the re-save the reconcile asked for, made
 * at once — or forced, `resave_forced`, when the changes were too few to ask for one; its blocks apart — profiled to `resave.cpuprofile`, gaps to FILE.resave) (`next-search.cpuprofile`), one of the four
 * other searches that follow it (`settled-searches.cpuprofile`; gaps to FILE.settled with
 * `VAULT_QUERY_RESTART_BENCH_GAPS`), and one of the
 * first start's main thread from layout-ready to the index built (`first-start.cpuprofile`; the
 * index worker profiles its own thread when VAULT_QUERY_WORKER_PROFILE names a file, see
 * node-index-worker.ts). `VAULT_QUERY_RESTART_BENCH_GAPS=FILE`: the first start's gaps over 50 ms
 * are written to FILE, and the restart's (to the reconcile done) to FILE.restart, for
 * `scripts/bench/profile-gaps.mjs`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { isMainThread } from 'node:worker_threads';
import { openDB } from 'idb';
import { describe, expect, it, vi } from 'vitest';
import type { SearchResult } from '../../src/core/search/search';
import { SearchIndex } from '../../src/core/search/search-index';
import { databaseName } from '../../src/obsidian/idb-store';
import { FakeApp } from './fake-app';
import { loadPlugin, settle } from './harness';
import { useNodeIndexWorker } from './node-index-worker';

const VAULT = process.env.VAULT_QUERY_RESTART_BENCH;
const OUT = process.env.VAULT_QUERY_RESTART_BENCH_OUT;
const CHANGED = Number(process.env.VAULT_QUERY_RESTART_BENCH_CHANGED ?? '0');
const STORE = process.env.VAULT_QUERY_RESTART_BENCH_STORE;
const PROFILE = process.env.VAULT_QUERY_RESTART_BENCH_PROFILE;
/** A file for the first start's gaps over 50 ms (their ends on a CPU profile's clock): `scripts/bench/profile-gaps.mjs` says what ran in each. */
const GAPS = process.env.VAULT_QUERY_RESTART_BENCH_GAPS;
const QUERY = 'the project notes';
/** Searches run once all is settled, after QUERY again: one common word, rare ones, several of each. */
const SETTLED_QUERIES = ['notes', 'obsidian plugin template', 'how to write a daily review', 'kanban'];
const APP_ID = 'restart-bench';

/** The saved store's database of the vault the bench opens. */
function database(app: FakeApp): ReturnType<typeof openDB> {
	return openDB(databaseName(APP_ID, app.vault.getName()), 1, {
		upgrade: (db) => db.createObjectStore('parts'),
	});
}

/** Every record of the vault's saved store, written to `file`. */
async function dumpStore(app: FakeApp, file: string): Promise<void> {
	const db = await database(app);
	const keys = await db.getAllKeys('parts');
	const values = await db.getAll('parts');
	db.close();
	writeFileSync(file, serialize({ keys, values }));
}

/** The records `dumpStore` wrote, put back into the vault's saved store. */
async function loadStore(app: FakeApp, file: string): Promise<void> {
	const { keys, values } = deserialize(readFileSync(file)) as { keys: IDBValidKey[]; values: unknown[] };
	const db = await database(app);
	const tx = db.transaction('parts', 'readwrite');
	// A copy of each chunk: a deserialized view shares the whole file's buffer, which every read would clone.
	for (let i = 0; i < keys.length; i++) {
		const value = values[i];
		await tx.store.put(value instanceof Uint8Array ? value.slice() : value, keys[i]);
	}
	await tx.done;
	db.close();
}

/** A CPU profile from `start()` to `stop(name)`, written under PROFILE (nothing without it). */
function profiler(): { start(): Promise<void>; stop(name: string): Promise<void> } {
	if (PROFILE === undefined) return { start: () => Promise.resolve(), stop: () => Promise.resolve() };
	const session = new Session();
	session.connect();
	return {
		start: async () => {
			await session.post('Profiler.enable');
			await session.post('Profiler.setSamplingInterval', { interval: 500 });
			await session.post('Profiler.start');
		},
		stop: async (name) => {
			const { profile } = await session.post('Profiler.stop');
			mkdirSync(PROFILE, { recursive: true });
			writeFileSync(join(PROFILE, `${name}.cpuprofile`), JSON.stringify(profile));
			session.disconnect();
		},
	};
}
/** A full collection before each start's layout-ready and after the re-save (`--settled-heap`, needs --expose-gc): the set-up's garbage is not collected inside the spans. */
function settledHeap(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (process.env.VAULT_QUERY_RESTART_BENCH_SETTLED_HEAP === '1' && typeof gc === 'function') gc();
}

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

/** The main thread's scheduler statistics (Linux; its task has the process's id), or null where there are none. */
const SCHEDSTAT = ((): string | null => {
	const file = `/proc/self/task/${process.pid}/schedstat`;
	try {
		return isMainThread && readFileSync(file, 'utf8').length > 0 ? file : null;
	} catch {
		return null;
	}
})();

/** The main thread's CPU milliseconds (its run time, updated at each of the kernel's ticks); else the process's (every thread). */
function threadCpuMs(): number {
	if (SCHEDSTAT !== null) return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
	const { user, system } = process.cpuUsage();
	return (user + system) / 1000;
}

/**
 * Gaps between 1 ms beats: the longest (and when it ended, ms after `reset`), and how many were over
 * 50 ms, since `reset`. `longestCpu`/`over50Cpu`: the same of the main thread's CPU time within each
 * gap (at most the gap; to a kernel tick) — a gap the machine's load made (the thread not scheduled)
 * holds little CPU, one our work or a collection made holds about all of it.
 */
function heartbeat(): {
	reset(): void;
	stop(): void;
	longest: () => number;
	longestAt: () => number;
	over50: () => number;
	longestCpu: () => number;
	over50Cpu: () => number;
	gaps: () => { endUs: number; ms: number }[];
} {
	let start = performance.now();
	let last = start;
	let lastCpu = threadCpuMs();
	let longest = 0;
	let longestAt = 0;
	let over = 0;
	let longestCpu = 0;
	let overCpu = 0;
	let gaps: { endUs: number; ms: number }[] = [];
	const beat = window.setInterval(() => {
		const now = performance.now();
		const cpu = threadCpuMs();
		const held = Math.min(cpu - lastCpu, now - last);
		longestCpu = Math.max(longestCpu, held);
		if (held > 50) overCpu++;
		if (now - last > longest) {
			longest = now - last;
			longestAt = now - start;
		}
		if (now - last > 50) {
			over++;
			gaps.push({ endUs: Number(process.hrtime.bigint() / 1000n), ms: now - last }); // the clock of a --cpu-prof profile
		}
		last = now;
		lastCpu = cpu;
	}, 1);
	return {
		reset: () => {
			start = performance.now();
			last = start;
			lastCpu = threadCpuMs();
			longest = 0;
			longestAt = 0;
			over = 0;
			longestCpu = 0;
			overCpu = 0;
			gaps = [];
		},
		stop: () => window.clearInterval(beat),
		longest: () => Math.round(longest),
		longestAt: () => Math.round(longestAt),
		over50: () => over,
		longestCpu: () => Math.round(longestCpu),
		over50Cpu: () => overCpu,
		gaps: () => gaps,
	};
}

/** The folder read as Obsidian has it at start: every note parsed into the metadata cache. */
function openVault(): FakeApp {
	const app = FakeApp.fromFolder(VAULT ?? '', { appId: APP_ID });
	app.vault.diskReadsAsync = true;
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
			const restoring = STORE !== undefined && existsSync(STORE);
			let notes = 0;
			let markdownBytes = 0;
			let firstStart: {
				buildMs: number;
				saveMs: number;
				cpu0: ReturnType<typeof cpuMs>;
				cpu1: ReturnType<typeof cpuMs>;
				cpuBuilt: ReturnType<typeof cpuMs>;
				blocksBuilt: { longest: number; over50: number; longestCpu: number; over50Cpu: number };
				blocks: { longest: number; at: number; over50: number };
			} | null = null;
			let before: SearchResult | null = null;
			if (!restoring) {
				// First start: an empty store, so it builds, then saves. Its fake app (every note's parsed
				// metadata in memory) is not made when the store comes from FILE: held through the restart, it
				// doubled the heap every garbage collection of the restore marks.
				const app = openVault();
				const first = await loadPlugin(app);
				const firstProfile = profiler();
				settledHeap();
				await firstProfile.start();
				beat.reset();
				const cpu0 = cpuMs();
				let t0 = performance.now();
				app.layoutReady();
				await first.engine.searchIndex();
				const buildMs = performance.now() - t0;
				const cpuBuilt = cpuMs();
				const blocksBuilt = {
					longest: beat.longest(),
					over50: beat.over50(),
					longestCpu: beat.longestCpu(),
					over50Cpu: beat.over50Cpu(),
				};
				await firstProfile.stop('first-start');
				t0 = performance.now();
				await first.engine.savesSettled();
				const saveMs = performance.now() - t0;
				const cpu1 = cpuMs();
				const blocks = { longest: beat.longest(), at: beat.longestAt(), over50: beat.over50() };
				if (GAPS !== undefined) writeFileSync(GAPS, JSON.stringify(beat.gaps()));
				before = await first.engine.search(QUERY, { limit: 10 });
				first.unload();
				expect(build).toHaveBeenCalledTimes(WORKER ? 0 : 1); // in the worker: no build on the main thread
				firstStart = { buildMs, saveMs, cpu0, cpu1, cpuBuilt, blocksBuilt, blocks };
				if (STORE !== undefined) await dumpStore(app, STORE);
			}
			const builds = build.mock.calls.length;

			// Second start over a fresh read of the folder (the same vault id), some notes edited meanwhile.
			const again = openVault();
			if (restoring) await loadStore(again, STORE);
			for (const f of again.vault.getMarkdownFiles()) {
				notes++;
				markdownBytes += f.stat.size;
			}
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
			const profile = profiler();
			settledHeap();
			await profile.start();
			beat.reset();
			const t0 = performance.now();
			const cpu0 = cpuMs().all;
			const main0 = cpuMs().main;
			again.layoutReady();
			// The restore (to the index installed) and the first search over it, their blocks apart.
			await second.engine.searchIndex();
			await settle();
			const restoreBlocks = {
				longest: beat.longest(),
				over50: beat.over50(),
				longestCpu: beat.longestCpu(),
				over50Cpu: beat.over50Cpu(),
			};
			const restoreCpuMs = cpuMs().all - cpu0;
			const main1 = cpuMs().main;
			const restoreGaps = beat.gaps();
			beat.reset();
			const searchCpu0 = cpuMs().all;
			const answer = await second.engine.search(QUERY, { limit: 10 });
			const restartReadyMs = performance.now() - t0;
			const restartCpuMs = cpuMs().all - cpu0;
			const searchCpuMs = cpuMs().all - searchCpu0;
			const main2 = cpuMs().main;
			await settle(); // the heartbeat due during the search's block beats first
			const searchBlock = beat.longest();
			await second.engine.settled();
			const reconcileMs = performance.now() - t0;
			const reconcileCpuMs = cpuMs().all - cpu0;
			const main3 = cpuMs().main;
			await profile.stop('restart');
			/** The main thread's CPU between two readings (10 ms ticks), or null where it cannot be read. */
			const mainSpan = (from: number | null, to: number | null): number | null =>
				from === null || to === null ? null : Math.round(to - from);
			await settle();
			if (GAPS !== undefined) writeFileSync(GAPS + '.restart', JSON.stringify([...restoreGaps, ...beat.gaps()]));
			const restartBlocks = {
				longest: Math.max(restoreBlocks.longest, beat.longest()),
				over50: restoreBlocks.over50 + beat.over50(),
				longestCpu: Math.max(restoreBlocks.longestCpu, beat.longestCpu()),
				over50Cpu: restoreBlocks.over50Cpu + beat.over50Cpu(),
			};
			// The re-save the reconcile's changes asked for (after its delay; here now), its blocks apart: it is no search's.
			const resaveProfile = profiler();
			await resaveProfile.start();
			beat.reset();
			const resaveCpu0 = cpuMs().all;
			const saves = (): number => second.engine.saved?.log.filter((l) => l.startsWith('saved (')).length ?? 0;
			const savesBefore = saves();
			await second.engine.savesSettled();
			// Fewer changes than a re-save waits for (1 in 50 notes): the save is made anyway, to measure the one that comes later.
			const resaveForced = saves() === savesBefore;
			if (resaveForced) await second.engine.saveNow();
			const resaveCpuMs = cpuMs().all - resaveCpu0;
			await resaveProfile.stop('resave');
			if (GAPS !== undefined) writeFileSync(GAPS + '.resave', JSON.stringify(beat.gaps()));
			await settle();
			const resaveBlock = { longest: beat.longest(), longestCpu: beat.longestCpu() };
			settledHeap(); // the re-save's garbage (the whole index encoded) is not left to the searches' collections
			// The same search again once all is settled (the link maps' inversion the first search started included): what any search costs, beside the first's.
			await second.engine.source.linkSourcesInverted();
			const nextProfile = profiler();
			await nextProfile.start();
			beat.reset();
			const againCpu0 = cpuMs().all;
			await second.engine.search(QUERY, { limit: 10 });
			const againCpuMs = cpuMs().all - againCpu0;
			await nextProfile.stop('next-search');
			await settle();
			const againBlock = { longest: beat.longest(), longestCpu: beat.longestCpu() };
			// More searches once all is settled, words common and rare: the longest block any search made.
			const settledBlocks = { longest: againBlock.longest, longestCpu: againBlock.longestCpu };
			const settledProfile = profiler();
			await settledProfile.start();
			const settledGaps: { endUs: number; ms: number }[] = [];
			for (const query of SETTLED_QUERIES) {
				beat.reset();
				await second.engine.search(query, { limit: 10 });
				await settle();
				settledBlocks.longest = Math.max(settledBlocks.longest, beat.longest());
				settledBlocks.longestCpu = Math.max(settledBlocks.longestCpu, beat.longestCpu());
				settledGaps.push(...beat.gaps());
			}
			await settledProfile.stop('settled-searches');
			if (GAPS !== undefined) writeFileSync(GAPS + '.settled', JSON.stringify(settledGaps));
			beat.stop();
			expect(build).toHaveBeenCalledTimes(builds); // restored, not rebuilt
			expect(second.engine.saved?.log).toContain(`restored (${CHANGED} notes to reconcile)`);
			if (CHANGED === 0 && before !== null) expect(answer.results).toEqual(before.results);
			const savedBytes = (await second.engine.savedSummary())?.bytes ?? 0;
			const round = (ms: number | undefined): number | null => (ms === undefined ? null : Math.round(ms));
			/** The first start's CPU, layout-ready → built and saved: the main thread's, or the process's (the worker's included). */
			const firstCpu = (pick: 'main' | 'all', until: 'cpu1' | 'cpuBuilt' = 'cpu1'): number | null => {
				const from = firstStart?.cpu0[pick];
				const to = firstStart?.[until][pick];
				return from === null || to === null || from === undefined || to === undefined
					? null
					: Math.round(to - from);
			};
			const figures = {
				vault: VAULT,
				notes,
				markdown_bytes: markdownBytes,
				build_path: firstStart === null ? 'restored from --store' : WORKER ? 'worker' : 'main thread',
				first_build_ms: round(firstStart?.buildMs),
				save_ms: round(firstStart?.saveMs),
				saved_bytes: savedBytes,
				changed_notes: CHANGED,
				restart_ready_ms: Math.round(restartReadyMs),
				restart_ready_cpu_ms: Math.round(restartCpuMs),
				restart_status: answer.status,
				reconcile_done_ms: Math.round(reconcileMs),
				reconcile_done_cpu_ms: Math.round(reconcileCpuMs),
				longest_block_ms: Math.max(firstStart?.blocks.longest ?? 0, restartBlocks.longest),
				blocks_over_50: (firstStart?.blocks.over50 ?? 0) + restartBlocks.over50,
				first_start:
					firstStart === null
						? null
						: {
								longest_block_ms: firstStart.blocks.longest,
								// when the longest block ended, ms after layout-ready (against first_build_ms: during the build or after)
								longest_block_at_ms: firstStart.blocks.at,
								blocks_over_50: firstStart.blocks.over50,
								main_thread_cpu_ms: firstCpu('main'),
								process_cpu_ms: firstCpu('all'),
								// layout-ready → the index built (usable), before the save: its CPU and blocks apart
								build_main_thread_cpu_ms: firstCpu('main', 'cpuBuilt'),
								build_process_cpu_ms: firstCpu('all', 'cpuBuilt'),
								build_longest_block_ms: firstStart.blocksBuilt.longest,
								build_blocks_over_50: firstStart.blocksBuilt.over50,
								// the main thread's CPU within each gap, to the index built (see restart.longest_block_cpu_ms)
								build_longest_block_cpu_ms: firstStart.blocksBuilt.longestCpu,
								build_blocks_over_50_cpu: firstStart.blocksBuilt.over50Cpu,
							},
				restart: {
					longest_block_ms: restartBlocks.longest,
					blocks_over_50: restartBlocks.over50,
					// the main thread's CPU within each gap (a loaded machine's descheduling left out): the longest, and those over 50 ms
					longest_block_cpu_ms: restartBlocks.longestCpu,
					blocks_over_50_cpu: restartBlocks.over50Cpu,
					restore_longest_block_ms: restoreBlocks.longest,
					restore_blocks_over_50: restoreBlocks.over50,
					restore_cpu_ms: Math.round(restoreCpuMs),
					restore_main_thread_cpu_ms: mainSpan(main0, main1),
					first_search_main_thread_cpu_ms: mainSpan(main1, main2),
					reconcile_main_thread_cpu_ms: mainSpan(main2, main3),
					first_search_block_ms: searchBlock,
					first_search_cpu_ms: Math.round(searchCpuMs),
					next_search_block_ms: againBlock.longest,
					// the main thread's CPU within its longest gap (see longest_block_cpu_ms)
					next_search_block_cpu_ms: againBlock.longestCpu,
					next_search_cpu_ms: Math.round(againCpuMs),
					// the re-save of the reconciled index (forced when the changes were too few to ask for one): its longest block, by the clock and by the CPU in it, and its CPU
					resave_forced: resaveForced,
					resave_longest_block_ms: resaveBlock.longest,
					resave_longest_block_cpu_ms: resaveBlock.longestCpu,
					resave_cpu_ms: Math.round(resaveCpuMs),
					// that search and SETTLED_QUERIES' once all is settled: the longest block of any, by the clock and by the CPU in it
					settled_searches_longest_block_ms: settledBlocks.longest,
					settled_searches_longest_block_cpu_ms: settledBlocks.longestCpu,
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

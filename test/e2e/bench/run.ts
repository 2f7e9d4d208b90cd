// clock-ok-file: a benchmark's runner: its only clock is a deadline for a stuck browser; it asserts nothing.
/**
 * The plugin's first start and restart in Chromium (`node scripts/bench/plugin-chromium.mjs`; the
 * e2e smoke test runs it on the example vault). The bench page (harness/bench-entry.ts) is built,
 * served with the vault (bench-server.ts, vault-meta.ts), and opened by a headless Chromium started
 * as a process of its own — no DevTools attached, whose network events would cost the page's main
 * thread at each of 50k reads — over a profile folder of its own: the first start builds in a Web
 * Worker and saves to IndexedDB; Chromium is closed and started again over the same profile (as
 * Obsidian restarts), the server now serving `changed` notes with new text, and the page restores.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { ARGS, CHROMIUM } from '../browser';
import { bundlePage, HARNESS } from '../harness-server';
import { startBenchServer, type BenchServer } from './bench-server';
import { summarize, type LoadFigures } from './figures';
import { freshPageMicros } from './fresh-pages';
import { duringMarking, pageTrace, pausedWithin, type TaskCollections } from './gc-trace';
import { changedNotes, listVault, vaultChanges, vaultMetaJson } from './vault-meta';

/** What to run. */
export interface BenchOptions {
	vault: string;
	/** Notes changed while Chromium was closed. */
	changed: number;
	/** Where the page is built (and Chromium's stderr kept). */
	outDir: string;
	/** Where the vault's metadata is cached (default: a folder of the OS's temp dir). */
	cacheDir?: string;
	/** The page samples its main thread (JS Self-Profiling, 10 ms) and names the functions inside each long task. */
	profile?: boolean;
	/** One request a note (the page's first stand-in for the disk), not the reads of a turn in one request. */
	fetchEach?: boolean;
	/** A load's deadline (default 30 min). */
	loadTimeoutMs?: number;
	/** First a load of its own that only reads every note, no plugin (harness/bench-floor.ts): the floor of the first start's blocks. */
	floor?: boolean;
	/** More of V8's flags for Chromium (`--trace-gc`: the collections, in the loads' logs beside their stderr). */
	jsFlags?: string;
}

/** Starts Chromium on the `load` page over the user data folder `userData`; resolves with the load's figures, then closes it. */
async function oneLoad(
	server: BenchServer,
	load: string,
	userData: string,
	logFile: string,
	timeoutMs: number,
	query: string,
	jsFlags: string,
): Promise<LoadFigures> {
	const url = `${server.url}bench.html?load=${load}${query}`;
	const args = [
		...ARGS,
		'--headless',
		`--user-data-dir=${userData}`,
		`--js-flags=${['--expose-gc', jsFlags].join(' ').trim()}`,
		'--enable-precise-memory-info',
		url,
	];
	const chromium = spawn(CHROMIUM, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	// Both streams to the log: V8's traces (--js-flags) go to stdout.
	const stderr: Buffer[] = [];
	chromium.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
	chromium.stdout.on('data', (chunk: Buffer) => stderr.push(chunk));
	const exited = new Promise<void>((done) => chromium.on('exit', () => done()));
	server.browserPid = chromium.pid ?? null;
	let timer: ReturnType<typeof setTimeout> | undefined;
	try {
		return (await Promise.race([
			server.result(load),
			exited.then(() => Promise.reject(new Error(`Chromium exited during the ${load} load (see ${logFile})`))),
			new Promise((_, fail) => {
				timer = setTimeout(
					() => fail(new Error(`the ${load} load posted nothing in ${timeoutMs} ms`)),
					timeoutMs,
				);
			}),
		])) as LoadFigures;
	} finally {
		clearTimeout(timer);
		// SIGTERM: Chromium shuts down cleanly (IndexedDB closed), as Obsidian quitting; SIGKILL if it hangs.
		if (chromium.exitCode === null && chromium.pid !== undefined) process.kill(-chromium.pid, 'SIGTERM');
		const killer = setTimeout(() => chromium.pid !== undefined && process.kill(-chromium.pid, 'SIGKILL'), 20_000);
		await exited;
		clearTimeout(killer);
		writeFileSync(logFile, Buffer.concat(stderr));
		server.browserPid = null;
	}
}

/**
 * Where the load's log has V8's `--trace-gc` lines: the page's collections of 20 ms or more
 * (`collections`, timed from layout-ready) and, on each long task, the ms of a collection's pause
 * inside it (`collection_ms`); with `--trace-incremental-marking` too, whether it ran while the
 * page's whole heap was being marked (`during_marking`: the marking's steps run inside tasks).
 * The renderer's stdout is buffered and Chromium is closed at the load's end, so the trace's last
 * lines can be lost (at 10k notes a restart's whole trace was): the figures are a lower bound.
 */
function withCollections(figures: LoadFigures, logFile: string): void {
	const trace = pageTrace(readFileSync(logFile, 'utf8'));
	if (trace === null) return;
	const { pauses, markings } = trace;
	figures.collections = pauses.filter((pause) => pause.pause_ms >= 20);
	for (const phase of figures.phases ?? [])
		for (const task of phase.long_tasks) {
			const marks: TaskCollections = { collection_ms: pausedWithin(pauses, task.start, task.ms) };
			if (markings !== null) marks.during_marking = duringMarking(markings, task.start, task.ms);
			Object.assign(task, marks);
		}
}

/** The floor's load (see BenchOptions.floor), over a profile of its own, its collections traced as the others'. */
async function floorLoad(
	server: BenchServer,
	options: BenchOptions,
	timeoutMs: number,
	query: string,
): Promise<LoadFigures> {
	const userData = mkdtempSync(join(tmpdir(), 'vault-query-chromium-bench-floor-'));
	const logFile = join(options.outDir, 'chromium-floor.log');
	try {
		const figures = await oneLoad(server, 'floor', userData, logFile, timeoutMs, query, options.jsFlags ?? '');
		withCollections(figures, logFile);
		return figures;
	} finally {
		rmSync(userData, { recursive: true, force: true });
	}
}

/** Runs the loads (the floor first, when asked) and returns their figures (summarize: figures.ts). */
export async function runChromiumBench(options: BenchOptions): Promise<Record<string, unknown>> {
	const vault = resolve(options.vault);
	const files = listVault(vault);
	const metaJson = vaultMetaJson(vault, files, options.cacheDir ?? join(tmpdir(), 'vault-query-chromium-bench'));
	const changes = vaultChanges(files, changedNotes(files, options.changed));
	const pageDir = join(options.outDir, 'page');
	mkdirSync(pageDir, { recursive: true });
	await bundlePage(join(HARNESS, 'bench-entry.ts'), join(pageDir, 'bench.js'));
	// Measured before Chromium starts, on a machine as quiet as the loads will find it.
	const freshPageUs = freshPageMicros();
	const server = await startBenchServer({ pageDir, files, metaJson, changes });
	const userData = mkdtempSync(join(tmpdir(), 'vault-query-chromium-bench-profile-'));
	try {
		const timeout = options.loadTimeoutMs ?? 30 * 60_000;
		const query = `${options.profile === true ? '&profile=1' : ''}${options.fetchEach === true ? '&reads=each' : ''}`;
		const floor = options.floor === true ? await floorLoad(server, options, timeout, query) : null;
		const first = await oneLoad(
			server,
			'first',
			userData,
			join(options.outDir, 'chromium-first.log'),
			timeout,
			query,
			options.jsFlags ?? '',
		);
		const again = await oneLoad(
			server,
			'restart',
			userData,
			join(options.outDir, 'chromium-restart.log'),
			timeout,
			query,
			options.jsFlags ?? '',
		);
		const version = execFileSync(CHROMIUM, ['--version'], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		});
		withCollections(first, join(options.outDir, 'chromium-first.log'));
		withCollections(again, join(options.outDir, 'chromium-restart.log'));
		return {
			chromium: version.trim(),
			reads: options.fetchEach === true ? 'a request a note' : 'the reads of a turn in one request',
			fresh_page_us: Math.round(freshPageUs * 100) / 100,
			...summarize({ vault, changed: options.changed, first, restart: again, floor, cpu: server.cpu }),
		};
	} finally {
		await server.close();
		rmSync(userData, { recursive: true, force: true });
	}
}

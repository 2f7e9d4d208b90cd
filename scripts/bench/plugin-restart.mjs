/**
 * The plugin's restart with a saved search index, on the test harness's fake app over a folder:
 * the first plugin builds and saves (fake-indexeddb), a second one starts over the same store and
 * answers its first search from the restored index. Runs test/plugin/restart-bench.test.ts under
 * vitest (the fake app and the `obsidian` stub live there) and prints its figures.
 *
 *   node scripts/bench/plugin-restart.mjs --vault DIR [--changed N] [--worker] [--json] [--store FILE] [--profile DIR] [--gaps FILE] [--settled-heap]
 *
 * --worker: the first start builds in the index worker (the bundle main.js inlines, in a Node
 * worker thread) instead of on the main thread; first_start.main_thread_cpu_ms and
 * process_cpu_ms split the cold build's CPU between the main thread and the rest; first_start.build_*
 * give the same CPU and the blocks from layout-ready to the index built (usable), the save apart.
 *
 * first_build_ms: layout-ready → the first start's index built; save_ms: its save; restart_ready_ms:
 * the second start's layout-ready → its first search answered (from the restored index, N notes
 * edited meanwhile still being re-indexed); reconcile_done_ms: → those N notes re-indexed;
 * longest_block_ms / blocks_over_50: the main thread's longest block and blocks over 50 ms over
 * both starts (split per start in first_start and restart; the restart's also into the restore —
 * layout-ready to the index installed — and the first search over it); saved_bytes: the saved index;
 * *_cpu_ms: the process's CPU time over the same spans (a loaded machine inflates it far less), and
 * the same search's again once all is settled (after the re-save the changes asked for, made at once —
 * or forced when they were too few to ask for one, restart.resave_forced: restart.resave_*; next_search_*; restart.settled_searches_longest_block_ms
 * and _cpu_ms: the longest block of that search and of four others run after it, by the clock and
 * by the main thread's CPU within it); restart.*_main_thread_cpu_ms: the
 * main thread's own CPU (10 ms ticks) of the restore, the first search and the reconcile after it.
 * --store FILE: the first start's saved store is kept in FILE, and a run that finds FILE restores
 * from it without a first start (delete FILE when what is saved changes); --profile DIR: a CPU
 * profile of layout-ready → the reconcile done is written to DIR/restart.cpuprofile, and one of the
 * same search run again once all is settled to DIR/next-search.cpuprofile (and of the four searches
 * after it to DIR/settled-searches.cpuprofile); the first start's
 * main thread (layout-ready → the index built) to DIR/first-start.cpuprofile and, with --worker,
 * the index worker's thread to DIR/worker.cpuprofile. --gaps FILE: the first start's main-thread
 * gaps over 50 ms, for `node scripts/bench/profile-gaps.mjs DIR/first-start.cpuprofile FILE`, and the
 * restart's to FILE.restart (with DIR/restart.cpuprofile), the settled searches' to FILE.settled
 * (with DIR/settled-searches.cpuprofile). --settled-heap: a full garbage collection
 * just before each start's layout-ready (and after the re-save, before the settled searches), so the harness's own set-up (the folder read, 50k notes
 * parsed, the store put back) leaves no collection to finish inside the measured spans — its
 * timing swung the restart's blocks by hundreds of ms from run to run; compare builds with it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const value = (name) => {
	const at = args.indexOf(name);
	return at >= 0 ? args[at + 1] : undefined;
};
const vault = value('--vault');
const changed = value('--changed') ?? '0';
if (vault === undefined || !/^\d+$/.test(changed)) {
	process.stderr.write(
		'usage: node scripts/bench/plugin-restart.mjs --vault DIR [--changed N] [--worker] [--json] [--store FILE] [--profile DIR] [--gaps FILE] [--settled-heap]\n',
	);
	process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'vq-restart-'));
const out = join(dir, 'figures.json');
const run = spawnSync(
	process.execPath,
	[join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/plugin/restart-bench.test.ts'],
	{
		cwd: root,
		stdio: ['ignore', 'pipe', 'inherit'],
		env: {
			...process.env,
			VAULT_QUERY_RESTART_BENCH: resolve(vault),
			VAULT_QUERY_RESTART_BENCH_OUT: out,
			VAULT_QUERY_RESTART_BENCH_CHANGED: changed,
			VAULT_QUERY_RESTART_BENCH_WORKER: args.includes('--worker') ? '1' : '0',
			...(args.includes('--settled-heap')
				? {
						VAULT_QUERY_RESTART_BENCH_SETTLED_HEAP: '1',
						NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --expose-gc`.trim(),
					}
				: {}),
			...(value('--store') === undefined ? {} : { VAULT_QUERY_RESTART_BENCH_STORE: resolve(value('--store')) }),
			...(value('--profile') === undefined
				? {}
				: {
						VAULT_QUERY_RESTART_BENCH_PROFILE: resolve(value('--profile')),
						VAULT_QUERY_WORKER_PROFILE: join(resolve(value('--profile')), 'worker.cpuprofile'),
					}),
			...(value('--gaps') === undefined ? {} : { VAULT_QUERY_RESTART_BENCH_GAPS: resolve(value('--gaps')) }),
		},
	},
);
let figures;
try {
	figures = JSON.parse(readFileSync(out, 'utf8'));
} catch {
	process.stderr.write(run.stdout?.toString() ?? '');
	process.stderr.write('\nthe restart harness wrote no figures (see the test output above)\n');
	process.exit(1);
} finally {
	rmSync(dir, { recursive: true, force: true });
}
if (args.includes('--json')) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
else {
	const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;
	const first = figures.first_start;
	const restart = figures.restart;
	const lines = [
		`vault            ${figures.vault} (${figures.notes} notes, ${mb(figures.markdown_bytes)} of Markdown)`,
		first === null
			? 'first_build_ms   (none: restored from --store)'
			: `first_build_ms   ${figures.first_build_ms} (${figures.build_path}; then saved in ${figures.save_ms} ms)`,
		first === null
			? null
			: `first start cpu  main thread ${first.main_thread_cpu_ms} ms, process ${first.process_cpu_ms} ms (to the index built: ${first.build_main_thread_cpu_ms} ms, ${first.build_process_cpu_ms} ms; blocks ${first.build_longest_block_ms} ms, ${first.build_blocks_over_50} over 50 ms)`,
		`saved_bytes      ${figures.saved_bytes} (${mb(figures.saved_bytes)}, ${(figures.saved_bytes / figures.markdown_bytes).toFixed(2)}× the Markdown)`,
		`restart_ready_ms ${figures.restart_ready_ms} (CPU ${figures.restart_ready_cpu_ms} ms; ${figures.changed_notes} notes changed; reconciled at ${figures.reconcile_done_ms} ms)`,
		`longest_block_ms ${figures.longest_block_ms} (first start ${first?.longest_block_ms ?? '-'}, restart ${restart.longest_block_ms})`,
		`blocks_over_50   ${figures.blocks_over_50} (first start ${first?.blocks_over_50 ?? '-'}, restart ${restart.blocks_over_50})`,
		`restart blocks   restore: longest ${restart.restore_longest_block_ms} ms, ${restart.restore_blocks_over_50} over 50 ms; first search ${restart.first_search_block_ms} ms (CPU ${restart.first_search_cpu_ms} ms), the same search again ${restart.next_search_block_ms} ms (CPU ${restart.next_search_cpu_ms} ms)`,
		`re-save${restart.resave_forced ? ' (forced)' : '         '} longest block ${restart.resave_longest_block_ms} ms (CPU in it ${restart.resave_longest_block_cpu_ms} ms; CPU ${restart.resave_cpu_ms} ms)`,
		`settled searches longest block ${restart.settled_searches_longest_block_ms} ms (CPU in it ${restart.settled_searches_longest_block_cpu_ms} ms)`,
	].filter((line) => line !== null);
	process.stdout.write(`${lines.join('\n')}\n`);
}

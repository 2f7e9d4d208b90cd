/**
 * The plugin's first start and restart in real Chromium (Obsidian's engine): real IndexedDB, the
 * index worker a real Web Worker from the bundle inlined as in main.js, and Chromium's own long
 * tasks (PerformanceObserver `longtask`: main-thread tasks over 50 ms, garbage collections in them
 * included). The page is the real plugin on the test harness's fake app; the vault's note list and
 * metadata (computed once in Node with the project's parser, cached under the OS's temp folder
 * keyed by the vault's path and files' mtimes and sizes) are served as JSON, and every note is
 * fetched from the local server at each read, as Obsidian reads from disk — the page never holds
 * every note's text. The reads the plugin asks for in one turn (32 notes) go in one request, as
 * their bytes and sizes; --fetch-each: one request a note (Chromium's fetch machinery then costs the
 * page's main thread ~1 ms a note, which a read from disk does not: 44–48 s of CPU at 50k notes).
 * Chromium (/usr/bin/chromium, headless, no DevTools attached) is started over a fresh profile:
 * layout-ready → the index built in the worker → saved; closed and started again over the same
 * profile with N notes changed meanwhile (served with new text, mtime and size; the vault is never
 * written): layout-ready → restored → first ranked search (restart_ready_ms) → reconciled
 * (reconcile_done_ms) → re-saved (forced with saveNow when the plugin did not ask for one) → five
 * searches once all is settled. Each load runs a full collection just before its
 * layout-ready (Chromium gets --js-flags=--expose-gc), as the Node harness's --settled-heap does.
 *
 *   node scripts/bench/plugin-chromium.mjs --vault DIR [--changed N] [--json] [--out FILE] [--profile] [--fetch-each] [--floor] [--js-flags=FLAGS]
 *
 * Per phase (between the page's marks): wall ms; Chromium's long tasks (longest, count over 50 ms,
 * each one's start after layout-ready and duration); the gaps over 50 ms of a 4 ms beat; long
 * animation frames over 50 ms with the scripts that ran in them (their function names say what a
 * long task was); the renderer's main-thread and whole-process CPU ms and minor page faults (/proc,
 * read at each mark), beside what a fresh 4 KB page costs this machine to touch (`fresh_page_us`).
 * --floor: first a load of its own over a fresh profile with no plugin that only reads every note
 * as the first start does (32 at once, into one reused buffer, 8 ms slices): what the reads alone
 * cost the page's main thread (`reads_alone`, the `floor.read` row; not in the headline figures).
 * --out FILE: the figures as JSON in FILE too. --profile: the page samples its main thread (the JS
 * Self-Profiling API, 10 ms a sample) and each long task lists its samples, those outside any
 * script (a collection, or Chromium's own work) and its commonest innermost functions (name:line
 * of bench.js). --js-flags=FLAGS: more of V8's flags for Chromium, written with `=` as they start
 * with a dash (`--js-flags="--trace-gc --trace-incremental-marking"`: each collection of the
 * page's heap and why it started, in test-output/plugin-chromium/chromium-first.log and
 * chromium-restart.log; the page's isolate is the one whose heap holds the fake app's metadata,
 * ~480 MB at 50k notes), read back onto each long task: `collection_ms` (a collection's pause
 * inside it) and `during_marking` (test/e2e/bench/gc-trace.ts). The page is built into
 * test-output/plugin-chromium/.
 */
import esbuild from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: options } = parseArgs({
	options: {
		vault: { type: 'string' },
		changed: { type: 'string', default: '0' },
		json: { type: 'boolean', default: false },
		profile: { type: 'boolean', default: false },
		'fetch-each': { type: 'boolean', default: false },
		floor: { type: 'boolean', default: false },
		out: { type: 'string' },
		'js-flags': { type: 'string', default: '' },
	},
});
if (options.vault === undefined || !/^\d+$/.test(options.changed)) {
	process.stderr.write(
		'usage: node scripts/bench/plugin-chromium.mjs --vault DIR [--changed N] [--json] [--out FILE] [--profile] [--fetch-each] [--floor] [--js-flags=FLAGS]\n',
	);
	process.exit(2);
}
// The runner is TypeScript (it shares the e2e harness): bundled for Node two folders under the
// repository, where test/helpers/paths.ts finds the repository from its own URL, as from its source.
const outDir = join(root, 'test-output', 'plugin-chromium');
mkdirSync(outDir, { recursive: true });
const runner = join(outDir, 'runner.mjs');
const workerBundle = join(root, 'scripts', 'index-worker-bundle.mjs');
await esbuild.build({
	absWorkingDir: root,
	entryPoints: [join(root, 'test', 'e2e', 'bench', 'main.ts')],
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	packages: 'external',
	outfile: runner,
	logLevel: 'silent',
	plugins: [
		{
			// Left a module of its own: it finds the repository from its own URL.
			name: 'worker-bundle-external',
			setup: (b) =>
				b.onResolve({ filter: /index-worker-bundle\.mjs$/ }, () => ({
					path: pathToFileURL(workerBundle).href,
					external: true,
				})),
		},
	],
});
const { runChromiumBench, formatFigures } = await import(pathToFileURL(runner).href);
const figures = await runChromiumBench({
	vault: options.vault,
	changed: Number(options.changed),
	outDir,
	profile: options.profile,
	fetchEach: options['fetch-each'],
	floor: options.floor,
	jsFlags: options['js-flags'],
});
if (options.out !== undefined) writeFileSync(resolve(options.out), `${JSON.stringify(figures, null, 2)}\n`);
process.stdout.write(options.json ? `${JSON.stringify(figures, null, 2)}\n` : formatFigures(figures));
const errors = [...figures.first_start.errors, ...figures.restart.errors];
process.exit(errors.length > 0 ? 1 : 0);

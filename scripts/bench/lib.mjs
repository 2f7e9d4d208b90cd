/**
 * Shared helpers of `npm run bench`: paths, statistics, timing, the vault's Markdown texts, the
 * engine bundle and the machine line. Everything here is read-only with respect to the vault.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Every figure is one process doing all its own work unless a bench says otherwise: the CLI's
// background server (which a call would otherwise start) is measured on its own, in bench-snapshot.mjs.
process.env.VAULT_QUERY_SERVER ??= 'off';

/** Repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Gitignored output folder: the engine bundle, latest.json. */
export const OUT_DIR = join(ROOT, 'bench-output');
/** The CLI bundle `npm run build` produces. */
export const CLI = join(ROOT, 'dist', 'cli.mjs');
/** The benchmark vault (issue 2, section 7); `--vault` overrides it. */
export const DEFAULT_VAULT = resolve(ROOT, '..', 'shared', 'vaults', 'obsidian-help-i18n');
/** Folders the vault walk never enters (the same as src/node/vault-walk.ts plus the config folder). */
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules', '.trash', '.obsidian']);

/** Write a line to stdout (scripts are the Node face; no console). */
export function say(text = '') {
	process.stdout.write(`${text}\n`);
}

/** Median of a non-empty list of numbers. */
export function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Summary of repeated timings in ms: median, min, max and the raw runs (rounded). */
export function summarize(runsMs) {
	const round = (x) => Math.round(x * 100) / 100;
	return {
		medianMs: round(median(runsMs)),
		minMs: round(Math.min(...runsMs)),
		maxMs: round(Math.max(...runsMs)),
		runsMs: runsMs.map(round),
	};
}

/** `times` output: `0m1.206s` → ms. */
function clockMs(text) {
	const m = /^(\d+)m([\d.]+)s$/.exec(text);
	return m ? (Number(m[1]) * 60 + Number(m[2])) * 1000 : NaN;
}

/**
 * Spawn `cmd args` to completion and return its wall time in ms with its exit status and output.
 * Output goes to a pipe (as it would to another program), never to a file in the vault.
 *
 * With `cpu: true` the command runs under `bash -c '…; times'` so the child's user+system CPU time
 * comes back too (`cpuMs`): CPU time barely moves when other processes compete for the two cores,
 * wall time does. The wrapper adds bash's start (~2 ms) to the wall time.
 */
export function timeSpawn(cmd, args, options = {}) {
	const { cpu = false, ...spawnOptions } = options;
	const [file, argv] = cpu ? ['bash', ['-c', '"$@"; s=$?; times >&2; exit $s', 'bash', cmd, ...args]] : [cmd, args];
	const start = performance.now();
	const child = spawnSync(file, argv, {
		encoding: 'utf8',
		maxBuffer: 512 * 1024 * 1024,
		stdio: ['ignore', 'pipe', 'pipe'],
		...spawnOptions,
	});
	const ms = performance.now() - start;
	if (child.error) throw child.error;
	let stderr = child.stderr;
	let cpuMs = null;
	if (cpu) {
		const lines = stderr.trimEnd().split('\n');
		const [user, system] = (lines.pop() ?? '').split(' ');
		lines.pop(); // bash's own times
		cpuMs = clockMs(user) + clockMs(system);
		stderr = lines.join('\n');
	}
	return { ms, cpuMs, status: child.status, stdout: child.stdout, stderr };
}

/** Format ms as `123 ms` or `1.23 s`. */
export function fmtMs(ms) {
	if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
	if (ms >= 100) return `${ms.toFixed(0)} ms`;
	if (ms >= 10) return `${ms.toFixed(1)} ms`;
	return `${ms.toFixed(2)} ms`;
}

/** PASS or MISS. */
export function verdict(ok) {
	return ok ? 'PASS' : 'MISS';
}

/** Every `.md` file of the vault (absolute paths, sorted), skipping the folders the vault walk skips. */
export function listMarkdown(vault) {
	const out = [];
	const walk = (dir) => {
		const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
			a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
		);
		for (const entry of entries) {
			const abs = join(dir, entry.name);
			if (entry.isDirectory()) {
				if (!SKIPPED_FOLDERS.has(entry.name)) walk(abs);
			} else if (entry.isFile() && entry.name.endsWith('.md')) {
				out.push(abs);
			}
		}
	};
	walk(vault);
	return out;
}

/** The vault's notes preloaded in memory: texts, their UTF-8 byte total, and vault-relative paths. */
export function loadTexts(vault) {
	const files = listMarkdown(vault);
	const texts = [];
	let bytes = 0;
	for (const file of files) {
		const buffer = readFileSync(file);
		bytes += buffer.length;
		texts.push(buffer.toString('utf8'));
	}
	return { texts, bytes, paths: files.map((f) => relative(vault, f)) };
}

/**
 * Bundle the engine entry points the benchmark calls in-process (our parser, openVault, runQuery,
 * DEFAULT_SETTINGS, and the pieces openVault and runQuery are made of for the breakdowns) into
 * bench-output/engine.mjs with esbuild's JS API, the same options as the CLI bundle.
 */
export async function bundleEngine() {
	const { build } = await import('esbuild');
	mkdirSync(OUT_DIR, { recursive: true });
	const outfile = join(OUT_DIR, 'engine.mjs');
	await build({
		stdin: {
			contents: [
				"export { parseNote } from './src/node/parser/index';",
				"export { openVault } from './src/node/vault-source';",
				"export { runQuery } from './src/core/query/run';",
				"export { DEFAULT_SETTINGS } from './src/core/settings';",
				"export { VaultWalker } from './src/node/vault-walk';",
				"export { readNoteSync, ScratchBuffer, DEFAULT_MAX_FILE_SIZE } from './src/node/note-reader';",
				"export { LinkResolver } from './src/node/resolver';",
				"export { buildLinkMaps } from './src/node/link-maps';",
				"export { makeContext } from './src/core/query/context';",
				"export { grepQuery, grepMatcher } from './src/core/query/grep';",
				"export { compileMatcher } from './src/core/text/matcher';",
				"export { TrigramIndex } from './src/core/text/trigram';",
				"export { termsOf } from './src/core/search/tokenize';",
				"export { parseWhere, splitWhereText } from './src/core/reader/where';",
			].join('\n'),
			resolveDir: ROOT,
			sourcefile: 'bench-engine-entry.ts',
			loader: 'ts',
		},
		bundle: true,
		format: 'esm',
		platform: 'node',
		target: 'node20',
		outfile,
		minify: false,
		logLevel: 'warning',
	});
	return outfile;
}

/** First line of a command's output, or null when it cannot run. */
function firstLine(cmd, args) {
	const child = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
	return child.status === 0 ? child.stdout.split('\n')[0].trim() : null;
}

/** CPU model, core count, memory, Node and ripgrep versions, load average at the start. */
export function machineFacts() {
	const cpuList = cpus();
	return {
		cpu: cpuList[0]?.model.trim() ?? 'unknown',
		cores: cpuList.length,
		memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
		node: process.version,
		v8: process.versions.v8,
		platform: `${process.platform} ${process.arch}`,
		ripgrep: firstLine('rg', ['--version']),
		loadAverage1m: Math.round(loadavg()[0] * 100) / 100,
	};
}

/** The machine line printed above the table. */
export function machineLine(m) {
	return `machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, node ${m.node}, ${m.ripgrep ?? 'rg missing'}, load ${m.loadAverage1m} at start${m.loadAverage1mEnd === undefined ? '' : `, ${m.loadAverage1mEnd} at end`}`;
}

/** Print rows as an aligned table; the first row is the header. */
export function printTable(rows) {
	const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => String(row[col] ?? '').length)));
	const line = (row) =>
		row
			.map((cell, col) => String(cell ?? '').padEnd(widths[col]))
			.join('  ')
			.trimEnd();
	say(line(rows[0]));
	say(widths.map((w) => '-'.repeat(w)).join('  '));
	for (const row of rows.slice(1)) say(line(row));
}

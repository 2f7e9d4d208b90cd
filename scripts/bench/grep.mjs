/**
 * Grep against ripgrep, in the same run: the same case-insensitive substring over the vault's .md
 * files, as (a) `rg` (wall time, its default threads, output to a pipe), (b) our cold CLI
 * `vault-query grep`, and (c) our scan alone — `runQuery(source, {type:'grep', pattern})` after
 * `openVault`, texts already in memory — in a fresh child process that also reports memory; and
 * the full answer (`--limit 100000`) of grep and text-search through the warm server beside rg
 * (full-answer.mjs). Without rg installed, the figures beside it are skipped with a message.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CLI_QUERIES, runCliOnce } from './cli.mjs';
import { benchFullAnswer } from './full-answer.mjs';
import { median, ROOT, summarize, timeSpawn, verdict } from './lib.mjs';

/** Issue 2, section 7: the in-memory scan within a tenth of rg's wall time. */
export const GREP_TARGETS = { maxRatioToRg: 0.1 };

/** The rg command line for a case-insensitive substring search with line numbers and ±2 lines, like ours. */
export function rgArgs(pattern, vault) {
	return [
		'--no-config',
		'--fixed-strings',
		'--ignore-case',
		'--line-number',
		'--context',
		'2',
		'--glob',
		'*.md',
		'--',
		pattern,
		vault,
	];
}

/** Files and lines rg finds (untimed, for the record: rg also searches frontmatter, we search bodies). */
function rgCounts(pattern, vault) {
	const child = spawnSync(
		'rg',
		['--no-config', '--fixed-strings', '--ignore-case', '--count', '--glob', '*.md', '--', pattern, vault],
		{ encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
	);
	const lines = child.stdout.split('\n').filter(Boolean);
	return { files: lines.length, lines: lines.reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(':') + 1)), 0) };
}

/** Run the worker's `scan` mode and parse its JSON. */
function inMemoryScan({ engineFile, vault, pattern, runs, warmups }) {
	const worker = join(ROOT, 'scripts', 'bench', 'engine-worker.mjs');
	const child = spawnSync(
		process.execPath,
		['--expose-gc', worker, 'scan', JSON.stringify({ engine: engineFile, vault, pattern, runs, warmups })],
		{ encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
	);
	if (child.status !== 0) throw new Error(`engine-worker scan failed: ${child.stderr}`);
	return JSON.parse(child.stdout.trim().split('\n').pop());
}

/** Run the grep job: beside rg when it is installed (the figures relative to rg are then left out, said on stdout). */
export function benchGrep({
	engineFile,
	vault,
	runs,
	warmups,
	pattern = CLI_QUERIES.grep[1],
	fullPattern = 'obsidian',
}) {
	const rgVersion = spawnSync('rg', ['--version'], { encoding: 'utf8' });
	const full = () =>
		benchFullAnswer({
			vault,
			pattern: fullPattern,
			runs,
			rg:
				rgVersion.status === 0
					? {
							args: [
								'--no-config',
								'--ignore-case',
								'--line-number',
								'--glob',
								'*.md',
								'--',
								fullPattern,
								vault,
							],
						}
					: null,
		});
	if (rgVersion.status !== 0) {
		process.stdout.write('grep: rg (ripgrep) not found, so no figure beside it (apt-get install -y ripgrep)\n');
		return { rg: null, fullAnswer: full() };
	}
	const rg = () => {
		const run = timeSpawn('rg', rgArgs(pattern, vault), { cpu: true });
		if (run.status !== 0) throw new Error(`rg exited ${String(run.status)}: ${run.stderr}`);
		return run;
	};
	const cli = () => runCliOnce(['grep', pattern], vault);
	rg();
	cli();
	const rgMs = [];
	const cliMs = [];
	const rgCpu = [];
	const cliCpu = [];
	for (let i = 0; i < runs; i++) {
		const a = rg();
		const b = cli();
		rgMs.push(a.ms);
		rgCpu.push(a.cpuMs);
		cliMs.push(b.ms);
		cliCpu.push(b.cpuMs);
	}
	const scan = inMemoryScan({ engineFile, vault, pattern, runs, warmups });
	const rgSum = summarize(rgMs);
	const scanSum = summarize(scan.runsMs);
	const ratio = Math.round((scanSum.medianMs / rgSum.medianMs) * 1000) / 1000;
	return {
		pattern,
		rg: {
			argv: ['rg', ...rgArgs(pattern, vault)],
			...rgSum,
			cpuMedianMs: Math.round(median(rgCpu)),
			found: rgCounts(pattern, vault),
		},
		cliGrep: {
			argv: ['vault-query', 'grep', pattern, '--vault', vault],
			...summarize(cliMs),
			cpuMedianMs: Math.round(median(cliCpu)),
			ratioToRg: Math.round((median(cliMs) / rgSum.medianMs) * 10) / 10,
		},
		inMemoryScan: {
			call: "runQuery(source, {type:'grep', pattern}, DEFAULT_SETTINGS)",
			...scanSum,
			firstRunMs: round2(scan.firstRunMs),
			matchedNotes: scan.matched,
			ratioToRg: ratio,
			parts: { queryContext: summarize(scan.parts.contextMs), grepQueryScan: summarize(scan.parts.scanMs) },
		},
		memoryAfterOpenVault: {
			...scan.memoryAfterOpen,
			retainedByOpenVaultMB: scan.retainedMB,
			openVaultMs: round2(scan.openVaultMs),
			notes: scan.notes,
		},
		fullAnswer: full(),
		targets: {
			scanVsRg: {
				target: `<= ${GREP_TARGETS.maxRatioToRg}x rg wall time`,
				value: ratio,
				verdict: verdict(ratio <= GREP_TARGETS.maxRatioToRg),
			},
		},
	};
}

/** Round to 2 decimals. */
function round2(x) {
	return Math.round(x * 100) / 100;
}

/**
 * `npm run bench` (not a test): parser throughput against markdown-it, cold CLI times
 * (`--no-cache`), grep against ripgrep, where a cold backlinks query spends its time, ranked
 * search, context packs and warm starts (snapshot, server, MCP). Prints a table with PASS/MISS per
 * target, writes bench-output/latest.json, and rewrites the current-figures table at the top of
 * docs/BENCHMARKS.md (the rows this run measured; the others keep their date). The page describes
 * the method.
 *
 * Usage: npm run bench -- [--only parser|growth|cli|grep|profile|search|pack|load|first-contact[,…]] [--runs N] [--vault PATH]
 *        npm run bench -- --summary [N]   (medians over the last N saved runs; runs nothing)
 * Memory is measured in a child process started with --expose-gc (a full GC before reading it).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchCli } from './bench/cli.mjs';
import { benchGrep } from './bench/grep.mjs';
import { benchRegex, printRegex } from './bench/regex.mjs';
import { benchFirstContact } from './bench/first-contact.mjs';
import { benchGrowth } from './bench/growth.mjs';
import { benchLoad } from './bench/load.mjs';
import {
	bundleEngine,
	CLI,
	DEFAULT_VAULT,
	fmtMs,
	machineFacts,
	machineLine,
	OUT_DIR,
	ROOT,
	say,
} from './bench/lib.mjs';
import { benchParser } from './bench/parser.mjs';
import { benchProfile } from './bench/profile.mjs';
import { printReport } from './bench/report.mjs';
import { childBench, hasChildBench } from './bench/children.mjs';
import { printSummary } from './bench/summary.mjs';
import { updateTable } from './bench/table.mjs';

/** Above this load average per core, a run's figures do not replace the table's (see --table-anyway). */
const LOADED_PER_CORE = 1.5;
const JOBS = [
	'parser',
	'growth',
	'cli',
	'grep',
	'regex',
	'profile',
	'search',
	'pack',
	'snapshot',
	'load',
	'first-contact',
];
/** Jobs that run only when asked: each takes the whole machine for many minutes. */
const ON_REQUEST = ['load', 'first-contact'];
const USAGE = `usage: npm run bench -- [--only ${JOBS.join('|')}[,…]] [--runs N (>= 5, default 5)] [--warmups N (default 3)] [--vault PATH] [--sizes i18n,10000,… (search and snapshot jobs; first-contact: note counts, default 13400,50000)] [--table-anyway]
       npm run bench -- --summary [N]   (medians over the last N saved runs in bench-output/runs/, runs nothing)`;

/** Parse argv; unknown flags are errors. */
function parseOptions(argv) {
	const options = {
		only: [],
		runs: 5,
		warmups: 3,
		vault: DEFAULT_VAULT,
		summary: false,
		summaryCount: null,
		sizes: null,
	};
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split(/=(.*)/s, 2);
		const value = () => {
			const v = inline ?? argv[++i];
			if (v === undefined) throw new Error(`${flag} needs a value`);
			return v;
		};
		if (flag === '--only')
			options.only.push(
				...value()
					.split(',')
					.map((s) => s.trim())
					.filter(Boolean),
			);
		else if (flag === '--runs') options.runs = Number(value());
		else if (flag === '--warmups') options.warmups = Number(value());
		else if (flag === '--vault') options.vault = resolve(value());
		else if (flag === '--sizes') options.sizes = value();
		else if (flag === '--table-anyway') options.tableAnyway = true;
		else if (flag === '--summary') {
			options.summary = true;
			const next = inline ?? argv[i + 1];
			if (next !== undefined && /^\d+$/.test(next)) {
				options.summaryCount = Number(next);
				if (inline === undefined) i++;
			}
		} else if (flag === '--help' || flag === '-h') options.help = true;
		else throw new Error(`unknown argument ${argv[i]}`);
	}
	for (const job of options.only)
		if (!JOBS.includes(job)) throw new Error(`--only: unknown job "${job}" (one of ${JOBS.join(', ')})`);
	if (!Number.isInteger(options.runs) || options.runs < 5)
		throw new Error('--runs: a whole number >= 5 (medians need at least 5 runs)');
	if (!Number.isInteger(options.warmups) || options.warmups < 1) throw new Error('--warmups: a whole number >= 1');
	if (options.sizes !== null && !/^(i18n|\d+)(,(i18n|\d+))*$/.test(options.sizes))
		throw new Error('--sizes: a comma-separated list of i18n and note counts, e.g. i18n,10000');
	return options;
}

let options;
try {
	options = parseOptions(process.argv.slice(2));
} catch (error) {
	process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
	process.exit(2);
}
if (options.help) {
	say(USAGE);
	process.exit(0);
}
if (options.summary) {
	printSummary(options.summaryCount);
	process.exit(0);
}
if (!existsSync(options.vault)) {
	process.stderr.write(`bench: vault not found: ${options.vault}\n`);
	process.exit(2);
}
if (!existsSync(CLI)) {
	process.stderr.write('bench: dist/cli.mjs missing: run `npm run build` (npm run bench does)\n');
	process.exit(2);
}

// `load` (twenty CLI processes on a 13k-note vault) and `first-contact` (cold builds at 13.4k and
// 50k notes) run only when asked: they take the whole machine for minutes.
const selected =
	options.only.length > 0
		? options.only
		: JOBS.filter(
				(j) => !ON_REQUEST.includes(j) && (!['search', 'pack', 'snapshot'].includes(j) || hasChildBench(j)),
			);
if (selected.includes('first-contact') && options.sizes?.split(',').includes('i18n')) {
	process.stderr.write('bench: --sizes for first-contact are note counts (generated vaults), not i18n\n');
	process.exit(2);
}
const wants = (job) => selected.includes(job);
const machine = machineFacts();
say(machineLine(machine));
say(
	`vault: ${options.vault}; ${options.runs} timed runs after ${options.warmups} warm-up(s); jobs: ${selected.join(', ')}`,
);

const engineFile = await bundleEngine();
const engine =
	wants('parser') || wants('growth') || wants('regex') ? await import(pathToFileURL(engineFile).href) : null;
const base = { vault: options.vault, runs: options.runs, warmups: options.warmups, engine, engineFile };
const results = {};
const step = async (job, fn) => {
	if (!wants(job)) return;
	const start = performance.now();
	say(`… ${job}`);
	results[job] = await fn(base);
	say(`  done in ${fmtMs(performance.now() - start)}`);
};
await step('parser', benchParser);
await step('growth', benchGrowth);
await step('cli', benchCli);
await step('grep', benchGrep);
await step('regex', benchRegex);
await step('profile', benchProfile);
const sizes = options.sizes === null ? [] : ['--sizes', options.sizes];
await step('search', childBench('search', sizes));
await step('pack', childBench('pack'));
await step('snapshot', childBench('snapshot', sizes));
await step('load', benchLoad);
await step('first-contact', () => benchFirstContact({ sizes: options.sizes }));

machine.loadAverage1mEnd = Math.round(loadavg()[0] * 100) / 100;
printReport(machine, results);
if (results.regex) printRegex(results.regex);

// latest.json is the last run; runs/ keeps every run so repeated runs can be compared (noisy machine).
const record = `${JSON.stringify({ date: new Date().toISOString(), machine, vault: options.vault, runs: options.runs, warmups: options.warmups, jobs: selected, ...results }, null, '\t')}\n`;
mkdirSync(join(OUT_DIR, 'runs'), { recursive: true });
const file = join(OUT_DIR, 'latest.json');
writeFileSync(file, record);
writeFileSync(join(OUT_DIR, 'runs', `${new Date().toISOString().replace(/[:.]/g, '-')}.json`), record);
say(`\nwrote ${file} (and a copy in bench-output/runs/)`);
const page = join(ROOT, 'docs', 'BENCHMARKS.md');
// A figure taken while other work holds the cores measures the load, not the code: such a run does
// not replace the table's figures unless asked to (its own figures are in bench-output/ all the same).
const load = Math.max(machine.loadAverage1m, machine.loadAverage1mEnd);
if (load > LOADED_PER_CORE * machine.cores && !options.tableAnyway)
	say(
		`not rewriting the table in ${page}: load average ${load} on ${machine.cores} cores (over ${LOADED_PER_CORE} per core); run again on a quieter machine, or pass --table-anyway`,
	);
else {
	const measured = updateTable(page, results);
	say(`rewrote ${measured} row(s) of the table in ${page}; the other rows keep the date they were measured`);
}
if (
	[results.search, results.pack, results.snapshot].some((r) => r?.ran && r.exitCode !== 0) ||
	results.load?.allCorrect === false
)
	process.exitCode = 1;

/**
 * `npm run bench -- --summary [N]`: the median of each headline figure over the last N saved runs
 * in bench-output/runs/ (default: all), with their spread — the machine is shared, so one run is
 * an anecdote. Runs nothing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { median, OUT_DIR, printTable, say, verdict } from './lib.mjs';

/** The headline figures: label, how to read it from a run, unit, and its target test if any. */
const FIGURES = [
	['parser: ours MB/s', (r) => r.parser?.ours.MBps, 'MB/s', (v) => v >= 100, '>= 100 MB/s'],
	['parser: markdown-it MB/s', (r) => r.parser?.markdownIt.MBps, 'MB/s'],
	['parser: ratio', (r) => r.parser?.ratio, 'x', (v) => v >= 8, '>= 8x'],
	['parser: ratio by CPU time', (r) => r.parser?.cpuRatio, 'x'],
	['baseline node -e 0', (r) => r.cli?.commands['node -e 0'].medianMs, 'ms'],
	['baseline cli --help', (r) => r.cli?.commands['cli --help'].medianMs, 'ms'],
	['cold CLI tag', (r) => r.cli?.commands.tag.medianMs, 'ms'],
	['cold CLI backlinks', (r) => r.cli?.commands.backlinks.medianMs, 'ms', (v) => v <= 1000, '<= 1000 ms'],
	['cold CLI backlinks, min', (r) => r.cli?.commands.backlinks.minMs, 'ms'],
	['cold CLI backlinks, CPU', (r) => r.cli?.commands.backlinks.cpuMedianMs, 'ms'],
	['cold CLI grep', (r) => r.cli?.commands.grep.medianMs, 'ms'],
	['rg', (r) => r.grep?.rg?.medianMs, 'ms'],
	['cold CLI grep / rg', (r) => r.grep?.cliGrep?.ratioToRg, 'x'],
	['in-memory scan (runQuery)', (r) => r.grep?.inMemoryScan?.medianMs, 'ms'],
	['  bare body scan (grepQuery)', (r) => r.grep?.inMemoryScan?.parts?.grepQueryScan.medianMs, 'ms'],
	['in-memory scan / rg', (r) => r.grep?.inMemoryScan?.ratioToRg, 'x', (v) => v <= 0.1, '<= 0.1x'],
	['memory after openVault', (r) => r.grep?.memoryAfterOpenVault?.heapPlusArrayBuffersMB, 'MB'],
	...['node boot', 'bundle import', 'walk', 'read', 'parse', 'resolver', 'linkMaps', 'query'].map((phase) => [
		`phase: ${phase}`,
		(r) => r.profile?.phases.medianMs[phase],
		'ms',
	]),
	...[
		'parse: body',
		'parse: frontmatter (js-yaml)',
		'GC',
		'read files',
		'walk folders',
		'link maps',
		'query',
		'startup: bundle load + CLI glue',
		'startup: node internals',
	].map((c) => [`profile: ${c}`, (r) => r.profile?.cpuProfile.categoriesMs[c], 'ms']),
	['profile: wall with --cpu-prof', (r) => r.profile?.cpuProfile.wallMs, 'ms'],
];

/** Print the summary of the last `count` runs (all when null). */
export function printSummary(count) {
	const dir = join(OUT_DIR, 'runs');
	const files = existsSync(dir)
		? readdirSync(dir)
				.filter((f) => f.endsWith('.json'))
				.sort()
		: [];
	const chosen = count === null ? files : files.slice(-count);
	if (chosen.length === 0) {
		say('no saved runs in bench-output/runs/: run npm run bench first');
		return;
	}
	const runs = chosen.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
	const loads = runs.map((r) => r.machine.loadAverage1m);
	say(
		`${runs.length} runs, ${chosen[0]} … ${chosen[chosen.length - 1]}; load at start ${Math.min(...loads)}–${Math.max(...loads)}`,
	);
	const rows = [['figure', 'median of runs', 'range', 'n', 'target', 'verdict']];
	for (const [label, read, unit, test, target] of FIGURES) {
		const values = runs.map(read).filter((v) => typeof v === 'number');
		if (values.length === 0) continue;
		const m = Math.round(median(values) * 100) / 100;
		rows.push([
			label,
			`${m} ${unit}`,
			`${Math.min(...values)}–${Math.max(...values)}`,
			String(values.length),
			target ?? '',
			test ? verdict(test(m)) : '',
		]);
	}
	printTable(rows);
}

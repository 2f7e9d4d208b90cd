/**
 * Where a cold `vault-query backlinks` spends its time, two ways:
 *
 * 1. Phases: a fresh child process runs openVault's steps one at a time (walk, read, parse,
 *    resolver, link maps), then the backlinks runQuery and its JSON rendering, each the first of
 *    its kind in that process (cold JIT, like the CLI); the median over `runs` processes.
 * 2. CPU profile of the real command: `node --cpu-prof dist/cli.mjs backlinks …`, profiles written
 *    to a fresh folder under os.tmpdir(); each sample is charged to the innermost phase function on
 *    its stack (parseNote, readNoteSync, buildLinkMaps, …); GC, idle and native time stay apart,
 *    and GC is also charged to the phase whose allocation triggered it (the sample before it).
 *    Profiling adds overhead, so shares matter more than absolute figures.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_QUERIES } from './cli.mjs';
import { CLI, median, ROOT, timeSpawn } from './lib.mjs';

/**
 * Phase markers, checked from the innermost frame outwards: the first function on the stack whose
 * name matches charges the sample. Names are the CLI bundle's (esbuild keeps them; a numeric
 * suffix is esbuild's de-duplication).
 */
const MARKERS = [
	[/^(parseFrontmatterYaml|collectFrontmatterLinks)\d*$/, 'parse: frontmatter (js-yaml)'],
	[/^(parseNote)\d*$/, 'parse: body'],
	[/^(readNoteSync|readNoteAsync|decode|take)\d*$/, 'read files'],
	[/^(walk|walkDir|assertVaultFolder|readUserIgnoreFilters)\d*$/, 'walk folders'],
	[/^(LinkResolver)\d*$/, 'resolver index'],
	[/^(buildLinkMaps)\d*$/, 'link maps'],
	[/^(runQuery)\d*$/, 'query'],
	[/^(renderText|renderJson|renderFooter|stdout)\d*$/, 'render/output'],
];

/** Charge every sample of a .cpuprofile to a category; returns ms per category and the profile span. */
export function categorize(profile) {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const memo = new Map();
	const categoryOf = (id) => {
		if (memo.has(id)) return memo.get(id);
		let category = null;
		let inBundle = false;
		for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
			const frame = byId.get(cur).callFrame;
			if (frame.functionName === '(garbage collector)') category = 'GC';
			else if (frame.functionName === '(idle)') category = 'idle (waiting on I/O)';
			else if (frame.functionName === '(program)') category = 'native/unattributed';
			else {
				if (frame.url.endsWith('cli.mjs')) inBundle = true;
				const hit = MARKERS.find(([re]) => re.test(frame.functionName));
				if (hit) category = hit[1];
			}
			if (category) break;
		}
		category ??= inBundle ? 'startup: bundle load + CLI glue' : 'startup: node internals';
		memo.set(id, category);
		return category;
	};
	const ms = {};
	const gcBy = {};
	const self = {};
	const { samples, timeDeltas } = profile;
	let last = null;
	for (let i = 0; i < samples.length; i++) {
		// A sample lasts until the next one (the last one until the profile's end).
		const duration =
			i + 1 < samples.length
				? timeDeltas[i + 1]
				: Math.max(
						0,
						profile.endTime - (profile.startTime + timeDeltas.slice(0, i + 1).reduce((a, b) => a + b, 0)),
					);
		const category = categoryOf(samples[i]);
		ms[category] = (ms[category] ?? 0) + duration / 1000;
		const frame = byId.get(samples[i]).callFrame;
		const fn = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\//, '')}:${frame.lineNumber + 1}`;
		self[fn] = (self[fn] ?? 0) + duration / 1000;
		// GC runs when an allocation needs room: charge it to the phase that was allocating.
		if (category === 'GC' && last !== null) gcBy[last] = (gcBy[last] ?? 0) + duration / 1000;
		else if (category !== 'GC') last = category;
	}
	return { ms, gcBy, self, spanMs: (profile.endTime - profile.startTime) / 1000 };
}

/** Run the worker's `phases` mode once. */
function phasesOnce(engineFile, vault, note) {
	const worker = join(ROOT, 'scripts', 'bench', 'engine-worker.mjs');
	const child = spawnSync(
		process.execPath,
		['--expose-gc', worker, 'phases', JSON.stringify({ engine: engineFile, vault, note })],
		{ encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
	);
	if (child.status !== 0) throw new Error(`engine-worker phases failed: ${child.stderr}`);
	return JSON.parse(child.stdout.trim().split('\n').pop());
}

/** Median of each key over a list of {key: ms} objects, rounded to 0.1 ms. */
function medianByKey(list) {
	const keys = [...new Set(list.flatMap((o) => Object.keys(o)))];
	return Object.fromEntries(keys.map((k) => [k, Math.round(median(list.map((o) => o[k] ?? 0)) * 10) / 10]));
}

/** Run the profile job. */
export function benchProfile({ engineFile, vault, runs, note = CLI_QUERIES.backlinks[1] }) {
	phasesOnce(engineFile, vault, note);
	const phaseRuns = [];
	for (let i = 0; i < runs; i++) {
		const r = phasesOnce(engineFile, vault, note);
		phaseRuns.push({ 'node boot': r.bootMs, 'bundle import': r.importMs, ...r.ms });
	}
	const phases = medianByKey(phaseRuns);

	const dir = mkdtempSync(join(tmpdir(), 'vault-query-prof-'));
	const profiled = [];
	const profileRuns = Math.max(3, Math.min(runs, 5));
	for (let i = 0; i < profileRuns; i++) {
		const name = `backlinks-${i}.cpuprofile`;
		const run = timeSpawn(process.execPath, [
			'--cpu-prof',
			`--cpu-prof-dir=${dir}`,
			`--cpu-prof-name=${name}`,
			'--cpu-prof-interval=250',
			CLI,
			'backlinks',
			note,
			'--vault',
			vault,
			'--no-cache',
		]);
		if (run.status !== 0) throw new Error(`profiled backlinks exited ${String(run.status)}: ${run.stderr}`);
		const { ms, gcBy, self, spanMs } = categorize(JSON.parse(readFileSync(join(dir, name), 'utf8')));
		profiled.push({ wallMs: run.ms, spanMs, ms, gcBy, self });
	}
	const categories = medianByKey(profiled.map((p) => p.ms));
	const gcCharged = medianByKey(profiled.map((p) => p.gcBy));
	const topSelf = Object.entries(medianByKey(profiled.map((p) => p.self)))
		.sort((a, b) => b[1] - a[1])
		.slice(0, 15);
	const wallMs = median(profiled.map((p) => p.wallMs));
	const spanMs = median(profiled.map((p) => p.spanMs));
	return {
		note,
		phases: { runs, medianMs: phases, sumMs: Math.round(Object.values(phases).reduce((a, b) => a + b, 0)) },
		cpuProfile: {
			runs: profileRuns,
			intervalUs: 250,
			dir,
			files: readdirSync(dir),
			wallMs: Math.round(wallMs),
			profiledSpanMs: Math.round(spanMs),
			beforeProfilerMs: Math.round(wallMs - spanMs),
			categoriesMs: categories,
			gcChargedToMs: gcCharged,
			topSelfMs: Object.fromEntries(topSelf),
		},
	};
}

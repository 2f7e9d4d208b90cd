/**
 * The compact tables `npm run bench` prints: figures with their targets and PASS/MISS, then the
 * cold backlinks breakdown (phases and CPU profile) when the profile job ran.
 */
import { fmtMs, machineLine, printTable, say } from './lib.mjs';

/** `median (min …)`. */
function range(s) {
	return `${fmtMs(s.medianMs)} (min ${fmtMs(s.minMs)})`;
}

/** The figures table rows: figure, value, target, verdict. */
function figureRows(results) {
	const rows = [['figure', 'median (min)', 'target', 'verdict']];
	const p = results.parser;
	if (p) {
		rows.push(['corpus', `${p.notes} notes, ${(p.bytes / 1e6).toFixed(1)} MB of .md`, '', '']);
		rows.push([
			'parser: ours',
			`${p.ours.MBps} MB/s (${fmtMs(p.ours.medianMs)}; best ${p.ours.bestMBps} MB/s)`,
			p.targets.throughput.target,
			p.targets.throughput.verdict,
		]);
		rows.push([
			'parser: markdown-it',
			`${p.markdownIt.MBps} MB/s (${fmtMs(p.markdownIt.medianMs)}; best ${p.markdownIt.bestMBps} MB/s)`,
			'',
			'',
		]);
		rows.push([
			'parser: ours / markdown-it',
			`${p.ratio}x`,
			p.targets.vsMarkdownIt.target,
			p.targets.vsMarkdownIt.verdict,
		]);
		rows.push([
			'parser by CPU time (ours, md-it)',
			`${p.ours.MBpsPerCpuSecond} / ${p.markdownIt.MBpsPerCpuSecond} MB per CPU-s = ${p.cpuRatio}x`,
			'',
			'',
		]);
	}
	const c = results.cli;
	if (c) {
		for (const [name, s] of Object.entries(c.commands)) {
			const t = name === 'backlinks' ? c.targets.coldBacklinks : null;
			rows.push([
				s.argv ? `cold CLI ${s.argv.slice(1, 3).join(' ')} (${String(s.matched)} matched)` : `baseline ${name}`,
				`${range(s)}; cpu ${fmtMs(s.cpuMedianMs)}`,
				t?.target ?? '',
				t?.verdict ?? '',
			]);
		}
	}
	const g = results.grep;
	for (const [name, row] of Object.entries(g?.fullAnswer?.commands ?? {})) {
		const server =
			row.serverCpuMedianMs === undefined
				? ''
				: `; server cpu ${fmtMs(row.serverCpuMedianMs ?? 0)}, peak ${String(row.serverPeakMB)} MB`;
		const vsRg = row.wallVsRg === undefined ? '' : ` = ${row.wallVsRg}x rg wall, ${String(row.cpuVsRg)}x rg CPU`;
		rows.push([
			`full answer "${g.fullAnswer.pattern}": ${name}`,
			`${fmtMs(row.wallMedianMs)}; call cpu ${fmtMs(row.callCpuMedianMs)}, peak ${String(row.callPeakMB)} MB${server}${vsRg}`,
			name === 'rg' ? '' : g.fullAnswer.target,
			'',
		]);
	}
	if (g?.rg) {
		rows.push([
			`rg -i -F "${g.pattern}" (${g.rg.found.files} files)`,
			`${range(g.rg)}; cpu ${fmtMs(g.rg.cpuMedianMs)}`,
			'',
			'',
		]);
		rows.push([
			'cold CLI grep (same run)',
			`${range(g.cliGrep)} = ${g.cliGrep.ratioToRg}x rg; cpu ${fmtMs(g.cliGrep.cpuMedianMs)}`,
			'',
			'',
		]);
		rows.push([
			`in-memory scan: runQuery (${g.inMemoryScan.matchedNotes} notes)`,
			`${range(g.inMemoryScan)} = ${g.inMemoryScan.ratioToRg}x rg`,
			g.targets.scanVsRg.target,
			g.targets.scanVsRg.verdict,
		]);
		const parts = g.inMemoryScan.parts;
		rows.push([
			'  of which context / body scan',
			`${fmtMs(parts.queryContext.medianMs)} / ${fmtMs(parts.grepQueryScan.medianMs)}`,
			'',
			'',
		]);
		const m = g.memoryAfterOpenVault;
		rows.push([
			'memory after openVault',
			`${m.heapPlusArrayBuffersMB} MB heap+arrayBuffers (rss ${m.rssMB} MB)`,
			'',
			'',
		]);
	}
	for (const [job, label] of [
		['search', 'ranked search (bench-search.mjs)'],
		['pack', 'context packs (bench-pack.mjs)'],
	]) {
		const s = results[job];
		if (s)
			rows.push([
				label,
				s.ran ? `exit ${String(s.exitCode)} in ${fmtMs(s.wallMs)} (its output above)` : s.reason,
				'',
				'',
			]);
	}
	return rows;
}

/** The breakdown table of a cold backlinks query. */
function breakdownRows(profile) {
	const rows = [['cold backlinks: where the time goes', 'ms (median)', 'share']];
	const phases = profile.phases.medianMs;
	const phaseTotal = Object.values(phases).reduce((a, b) => a + b, 0);
	for (const [name, ms] of Object.entries(phases))
		rows.push([`phase: ${name}`, ms.toFixed(0), `${((ms / phaseTotal) * 100).toFixed(0)}%`]);
	rows.push(['phase: sum', phaseTotal.toFixed(0), '']);
	const cp = profile.cpuProfile;
	rows.push([`profile: before the profiler started`, String(cp.beforeProfilerMs), '']);
	const total = Object.values(cp.categoriesMs).reduce((a, b) => a + b, 0);
	const sorted = Object.entries(cp.categoriesMs).sort((a, b) => b[1] - a[1]);
	for (const [name, ms] of sorted) {
		const gc = cp.gcChargedToMs[name];
		rows.push([
			`profile: ${name}`,
			`${ms.toFixed(0)}${gc ? ` (+${gc.toFixed(0)} GC)` : ''}`,
			`${((ms / total) * 100).toFixed(0)}%`,
		]);
	}
	rows.push([`profile: wall (with --cpu-prof)`, String(cp.wallMs), '']);
	return rows;
}

/** Print everything. */
export function printReport(machine, results) {
	say();
	say(machineLine(machine));
	printTable(figureRows(results));
	if (results.profile) {
		say();
		printTable(breakdownRows(results.profile));
		const top = Object.entries(results.profile.cpuProfile.topSelfMs).slice(0, 8);
		say(`top self time: ${top.map(([fn, ms]) => `${fn} ${ms.toFixed(0)}`).join('; ')} (ms)`);
		say(`profiles: ${results.profile.cpuProfile.dir}`);
	}
}

/**
 * Regexes on RE2 against V8 (issue 13): the same patterns over every note of the vault, in memory,
 * finding the matching lines as grep does — V8's backtracking `RegExp` (what grep used before) and
 * our bounded matcher (`compileMatcher`: re2js for regexes, `indexOf` for literals). Case-insensitive,
 * like grep's default. Not a target: the price of the linear-time guarantee, written down.
 */
import { spawnSync } from 'node:child_process';
import { fmtMs, loadTexts, median, printTable, say } from './lib.mjs';

/** Patterns a user might type: literals, classes, alternations, anchors, a wildcard between words, CJK. */
export const REGEX_PATTERNS = [
	['common word (literal)', 'obsidian', false],
	['rare literal', 'QQQzzq', false],
	['common word (as regex)', 'obsidian', true],
	['date', '\\d{4}-\\d{2}-\\d{2}', true],
	['alternation', '(callout|embed|canvas)', true],
	['anchored heading', '^#+ .*link', true],
	['wildcard between words', 'tag.*property', true],
	['CJK', '笔记', true],
];

/** V8: the matching lines of one text, as grep found them before (one exec per matching line). */
function v8Lines(text, re) {
	let count = 0;
	re.lastIndex = 0;
	let found = re.exec(text);
	while (found !== null) {
		count++;
		const next = text.indexOf('\n', found.index);
		if (next < 0) break;
		re.lastIndex = next + 1;
		found = re.exec(text);
	}
	return count;
}

/** Median ms of `runs` timed calls after one warm-up; returns the last result too. */
function time(fn, runs) {
	let value = fn();
	const ms = [];
	for (let i = 0; i < runs; i++) {
		const start = performance.now();
		value = fn();
		ms.push(performance.now() - start);
	}
	return { ms: median(ms), value };
}

/** Run the regex job. */
export function benchRegex({ engine, vault, runs }) {
	const { texts, bytes } = loadTexts(vault);
	const rows = [];
	for (const [name, pattern, regex] of REGEX_PATTERNS) {
		const re = new RegExp(regex ? pattern : pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gim');
		const compiled = engine.compileMatcher({ pattern, regex, caseSensitive: false });
		if (!compiled.ok) throw new Error(compiled.error);
		const v8 = time(() => texts.reduce((n, t) => n + v8Lines(t, re), 0), runs);
		const ours = time(() => texts.reduce((n, t) => n + compiled.matcher.matchingLines(t, 0).lines.length, 0), runs);
		rows.push({
			name,
			pattern,
			regex,
			v8Ms: Math.round(v8.ms),
			oursMs: Math.round(ours.ms),
			ratio: Math.round((ours.ms / v8.ms) * 10) / 10,
			v8Lines: v8.value,
			ourLines: ours.value,
		});
	}
	return {
		notes: texts.length,
		MB: Math.round(bytes / 1e5) / 10,
		rows,
		trigram: benchTrigram(engine, texts, vault, runs),
	};
}

/**
 * The trigram candidate index (issue 11): its build time and size, then grep of a rare literal and
 * of a common word as index candidates + the matcher's verification, against `rg` when installed.
 */
function benchTrigram(engine, texts, vault, runs) {
	const start = performance.now();
	const index = new engine.TrigramIndex();
	texts.forEach((text, i) => index.upsert(String(i), text));
	const buildMs = Math.round(performance.now() - start);
	const bytes = index.serialize().length;
	const rows = [];
	for (const [name, pattern] of [
		['rare literal', 'QQQzzq'],
		['rare word', 'Zettelkasten'],
		['common word', 'obsidian'],
	]) {
		const { matcher } = engine.compileMatcher({ pattern, regex: false, caseSensitive: false });
		const found = time(() => {
			const candidates = index.candidates(matcher.trigrams);
			let lines = 0;
			texts.forEach((text, i) => {
				if (candidates === null || candidates.has(String(i)))
					lines += matcher.matchingLines(text, 0).lines.length;
			});
			return { lines, candidates: candidates === null ? texts.length : candidates.size };
		}, runs);
		const rg = spawnSync(
			'rg',
			['--no-config', '--fixed-strings', '--ignore-case', '--count', '--glob', '*.md', '--', pattern, vault],
			{ encoding: 'utf8' },
		);
		let rgMs = null;
		if (rg.status !== null && rg.error === undefined) {
			const ms = [];
			for (let i = 0; i < runs; i++) {
				const t = performance.now();
				spawnSync(
					'rg',
					[
						'--no-config',
						'--fixed-strings',
						'--ignore-case',
						'--line-number',
						'--glob',
						'*.md',
						'--',
						pattern,
						vault,
					],
					{ encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
				);
				ms.push(performance.now() - t);
			}
			rgMs = Math.round(median(ms));
		}
		rows.push({
			name,
			pattern,
			ms: Math.round(found.ms * 10) / 10,
			candidates: found.value.candidates,
			lines: found.value.lines,
			rgMs,
		});
	}
	return { buildMs, bytes, rows };
}

/** Print the job's table. */
export function printRegex(result) {
	say(
		`\nregexes: RE2 (re2js) vs V8 over ${result.notes} notes, ${result.MB} MB, matching lines found (case-insensitive)`,
	);
	const table = [['pattern', 'V8', 'ours', 'ours / V8', 'lines (V8 / ours)']];
	for (const r of result.rows)
		table.push([
			`${r.name}: ${r.regex ? `/${r.pattern}/` : `"${r.pattern}"`}`,
			fmtMs(r.v8Ms),
			fmtMs(r.oursMs),
			`${r.ratio}x`,
			`${r.v8Lines} / ${r.ourLines}`,
		]);
	printTable(table);
	const t = result.trigram;
	say(
		`\ntrigram index: built in ${fmtMs(t.buildMs)}, ${(t.bytes / 1e6).toFixed(1)} MB serialised; grep = candidates + verification, in memory`,
	);
	const rows = [['grep (case-insensitive literal)', 'ours', 'candidates', 'lines', 'rg (process, same vault)']];
	for (const r of t.rows)
		rows.push([
			`${r.name} "${r.pattern}"`,
			fmtMs(r.ms),
			String(r.candidates),
			String(r.lines),
			r.rgMs === null ? 'rg missing' : fmtMs(r.rgMs),
		]);
	printTable(rows);
}

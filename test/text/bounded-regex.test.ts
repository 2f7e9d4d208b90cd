// @vitest-environment happy-dom
/**
 * Issue 13: every pattern a user can type finishes in bounded time, in the CLI and through the
 * plugin class, on a vault whose content makes a backtracking engine (V8's) run for minutes.
 * Bounded is counted, not timed: every regex runs on RE2, whose time is linear in the characters
 * it is handed times its program's size (compiling refuses programs over MAX_REGEX_PROGRAM), and
 * `regexWork` counts those characters. Each call may hand RE2 only a few passes over the vault's
 * text: one per level of the line-halving search, plus the whole-note tests. (A backtracking
 * engine would hang here and run into the test's timeout; the real times are in the bench.)
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run';
import { compileMatcher, regexWork } from '../../src/core/text/matcher';
import { FakeApp } from '../plugin/fake-app';
import { EXAMPLE_VAULT, loadPlugin, settle } from '../plugin/harness';
import { ready } from '../ui/harness';

/** Lines a backtracking engine chokes on for the patterns below: long runs of one character. */
const ADVERSARIAL = [
	'# Backtracking bait',
	'',
	'e'.repeat(5000),
	`${' '.repeat(5000)}y`,
	'a'.repeat(5000),
	'1'.repeat(5000),
	`${'ab'.repeat(2500)}c`,
	`${'x '.repeat(2500)}!`,
	'word '.repeat(1000),
	'',
].join('\n');

/** The patterns issue 13 measured hanging (30–120 s each with V8). */
export const ISSUE_PATTERNS = [
	'(.*e){8}QQQ',
	'\\s*\\s*\\s*\\s*\\s*\\s*x$',
	'(a|aa)*b',
	'(\\w|\\d)*Q',
	'.*e.*e.*e.*e.*QQQ',
	'(.*e){3}QQQ',
];

/** A family of generated catastrophic shapes over the characters the note repeats. */
export function generatedPatterns(): string[] {
	const atoms = ['a', 'e', '1', '\\w', '\\s', '.', '[a-z]', '(?:ab)'];
	const out: string[] = [];
	atoms.forEach((x, i) => {
		const end = ['Q', '!', 'x$', '\\d{3}Z'][i % 4];
		out.push(
			`(${x}+)+${end}`,
			`(${x}*)*${end}`,
			`(${x}|${x}${x})*${end}`,
			`(.*${x}){${4 + (i % 5)}}${end}`,
			`${`${x}*`.repeat(8)}${end}`,
			`(${x}?){30}${x}{30}${end}`,
		);
	});
	return out;
}

const ALL = [...ISSUE_PATTERNS, ...generatedPatterns()];

/** The notes' characters, and the lines of the longest. */
function textOf(files: string[]): { chars: number; lines: number } {
	return {
		chars: files.reduce((sum, text) => sum + text.length, 0),
		lines: Math.max(...files.map((text) => text.split('\n').length)),
	};
}

/** The Markdown notes under `root`, as text. */
function notesUnder(root: string): string[] {
	return readdirSync(root, { recursive: true, encoding: 'utf8' })
		.filter((rel) => rel.endsWith('.md'))
		.map((rel) => readFileSync(join(root, rel), 'utf8'));
}

/**
 * The most characters one call may hand RE2 for a vault of this text: a whole-note test, the
 * first test of the line search, then one pass per halving level (log2 of the longest note's
 * lines), and the last lines one by one — doubled, for a face that both counts and lists.
 */
function budgetOf(text: { chars: number; lines: number }): number {
	return 2 * (3 + Math.ceil(Math.log2(text.lines))) * text.chars;
}

/** RE2's calls and characters during one async call. */
async function counted<T>(call: () => Promise<T>): Promise<{ value: T; chars: number }> {
	const before = regexWork.chars;
	const value = await call();
	return { value, chars: regexWork.chars - before };
}

let vault: string;
beforeAll(() => {
	vault = mkdtempSync(join(tmpdir(), 'vq-bounded-'));
	cpSync(EXAMPLE_VAULT, vault, { recursive: true });
	writeFileSync(join(vault, 'notes', 'bait.md'), ADVERSARIAL);
});
afterAll(() => rmSync(vault, { recursive: true, force: true }));

describe('regexes finish in bounded time', () => {
	it('every pattern compiles to a program within the size limit (or is refused by name), and each run is counted', () => {
		for (const pattern of ALL) {
			const compiled = compileMatcher({ pattern, regex: true, caseSensitive: false });
			if (!compiled.ok) {
				expect(compiled.error, pattern).toMatch(/^pattern: /);
				continue;
			}
			const before = regexWork.calls;
			compiled.matcher.test(ADVERSARIAL);
			expect(regexWork.calls, pattern).toBe(before + 1);
		}
	});

	it('in the CLI: grep --regex and text-search --regex, every pattern within a few passes over the vault', async () => {
		const budget = budgetOf(textOf(notesUnder(vault)));
		const over: string[] = [];
		let most = 0; // the most characters one call handed RE2: none would mean the regexes ran elsewhere
		for (const pattern of ALL) {
			for (const args of [
				['grep', '--regex', pattern],
				['text-search', '--regex', pattern, '--folders', 'all'],
			]) {
				const err: string[] = [];
				const run = await counted(() =>
					runCli([...args, '--vault', vault, '--json'], {
						stdout: () => {},
						stderr: (t) => err.push(t),
						cwd: vault,
					}),
				);
				expect([0, 1], `${args.join(' ')}: ${err.join('')}`).toContain(run.value);
				most = Math.max(most, run.chars);
				if (run.chars > budget) over.push(`${args[0]} ${pattern}: ${run.chars} characters`);
			}
		}
		expect(most).toBeGreaterThan(0);
		expect(over, `budget ${budget} characters`).toEqual([]);
	}, 600_000);

	it('through the plugin class: api.query grep and api.textSearch, every pattern within a few passes over the vault', async () => {
		const app = FakeApp.fromFolder(vault);
		const plugin = await loadPlugin(app);
		app.layoutReady();
		app.indexAll();
		await settle();
		const budget = budgetOf(textOf(notesUnder(vault)));
		const over: string[] = [];
		let most = 0; // the most characters one call handed RE2: none would mean the regexes ran elsewhere
		for (const pattern of ALL) {
			const grep = await counted(() => plugin.api.query({ type: 'grep', pattern, regex: true }));
			// The example vault holds a note whose frontmatter does not parse: grep answers partial for it, as tag does.
			expect(grep.value.status, pattern).not.toBe('failed');
			const text = await counted(() => plugin.api.textSearch(pattern, { regex: true, folders: ['all'] }));
			expect(text.value.status, pattern).toBe('success');
			for (const [face, chars] of [
				['grep', grep.chars],
				['textSearch', text.chars],
			] as const) {
				most = Math.max(most, chars);
				if (chars > budget) over.push(`${face} ${pattern}: ${chars} characters`);
			}
		}
		expect(most).toBeGreaterThan(0);
		expect(over, `budget ${budget} characters`).toEqual([]);
	}, 600_000);

	it('in the CLI: search /re/ clauses, every pattern within a few passes over the vault', async () => {
		const budget = budgetOf(textOf(notesUnder(vault)));
		const over: string[] = [];
		let most = 0; // the most characters one call handed RE2: none would mean the regexes ran elsewhere
		for (const pattern of ALL) {
			const err: string[] = [];
			const run = await counted(() =>
				runCli(['search', `/${pattern}/`, '--vault', vault, '--json'], {
					stdout: () => {},
					stderr: (t) => err.push(t),
					cwd: vault,
				}),
			);
			expect([0, 1], `search /${pattern}/: ${err.join('')}`).toContain(run.value);
			most = Math.max(most, run.chars);
			if (run.chars > budget) over.push(`search /${pattern}/: ${run.chars} characters`);
		}
		expect(most).toBeGreaterThan(0);
		expect(over, `budget ${budget} characters`).toEqual([]);
	}, 600_000);

	it('through the plugin class: api.search /re/ clauses (the modal and search: code blocks), every pattern within a few passes over the vault', async () => {
		const files = { 'Home.md': '# Home\n\nSee [[bait]].\n', 'notes/bait.md': ADVERSARIAL };
		const { plugin } = await ready(files);
		const budget = budgetOf(textOf(Object.values(files)));
		const over: string[] = [];
		let most = 0; // the most characters one call handed RE2: none would mean the regexes ran elsewhere
		for (const pattern of ALL) {
			const run = await counted(() => plugin.api.search(`/${pattern}/`));
			expect(run.value.status, pattern).not.toBe('failed');
			most = Math.max(most, run.chars);
			if (run.chars > budget) over.push(`api.search /${pattern}/: ${run.chars} characters`);
		}
		expect(most).toBeGreaterThan(0);
		expect(over, `budget ${budget} characters`).toEqual([]);
	}, 600_000);

	it('still finds what the patterns do match, on the bait lines', async () => {
		const out: string[] = [];
		const code = await runCli(['grep', '--regex', '(a|aa)*bc', '--vault', vault, '--json'], {
			stdout: (t) => out.push(t),
			stderr: () => {},
			cwd: vault,
		});
		expect(code).toBe(0);
		const result = JSON.parse(out.join('')) as { results: { path: string; matches: { line: number }[] }[] };
		expect(result.results.find((r) => r.path === 'notes/bait.md')?.matches.map((m) => m.line)).toEqual([7]);
	});
});

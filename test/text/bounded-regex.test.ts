// @vitest-environment happy-dom
/**
 * Issue 13: every pattern a user can type finishes in bounded time, in the CLI and through the
 * plugin class, on a vault whose content makes a backtracking engine (V8's) run for minutes. Each
 * call must answer within 2 s (a hang guard, not a speed target: the real figures are in the bench).
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run';
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
const GUARD_MS = 2000;

let vault: string;
beforeAll(() => {
	vault = mkdtempSync(join(tmpdir(), 'vq-bounded-'));
	cpSync(EXAMPLE_VAULT, vault, { recursive: true });
	writeFileSync(join(vault, 'notes', 'bait.md'), ADVERSARIAL);
});
afterAll(() => rmSync(vault, { recursive: true, force: true }));

/** Time one async call. */
async function timed<T>(call: () => Promise<T>): Promise<{ value: T; ms: number }> {
	const start = performance.now();
	const value = await call();
	return { value, ms: performance.now() - start };
}

describe('regexes finish in bounded time', () => {
	it('in the CLI: grep --regex and text-search --regex, every pattern within 2 s', async () => {
		const slow: string[] = [];
		for (const pattern of ALL) {
			for (const args of [
				['grep', '--regex', pattern],
				['text-search', '--regex', pattern, '--folders', 'all'],
			]) {
				const err: string[] = [];
				const run = await timed(() =>
					runCli([...args, '--vault', vault, '--json'], {
						stdout: () => {},
						stderr: (t) => err.push(t),
						cwd: vault,
					}),
				);
				expect([0, 1], `${args.join(' ')}: ${err.join('')}`).toContain(run.value);
				if (run.ms > GUARD_MS) slow.push(`${args[0]} ${pattern}: ${Math.round(run.ms)} ms`);
			}
		}
		expect(slow).toEqual([]);
	}, 600_000);

	it('through the plugin class: api.query grep and api.textSearch, every pattern within 2 s', async () => {
		const app = FakeApp.fromFolder(vault);
		const plugin = await loadPlugin(app);
		app.layoutReady();
		app.indexAll();
		await settle();
		const slow: string[] = [];
		for (const pattern of ALL) {
			const grep = await timed(() => plugin.api.query({ type: 'grep', pattern, regex: true }));
			expect(grep.value.status, pattern).toBe('success');
			const text = await timed(() => plugin.api.textSearch(pattern, { regex: true, folders: ['all'] }));
			expect(text.value.status, pattern).toBe('success');
			for (const [face, ms] of [
				['grep', grep.ms],
				['textSearch', text.ms],
			] as const)
				if (ms > GUARD_MS) slow.push(`${face} ${pattern}: ${Math.round(ms)} ms`);
		}
		expect(slow).toEqual([]);
	}, 600_000);

	it('in the CLI: search /re/ clauses, every pattern within 2 s', async () => {
		const slow: string[] = [];
		for (const pattern of ALL) {
			const err: string[] = [];
			const run = await timed(() =>
				runCli(['search', `/${pattern}/`, '--vault', vault, '--json'], {
					stdout: () => {},
					stderr: (t) => err.push(t),
					cwd: vault,
				}),
			);
			expect([0, 1], `search /${pattern}/: ${err.join('')}`).toContain(run.value);
			if (run.ms > GUARD_MS) slow.push(`search /${pattern}/: ${Math.round(run.ms)} ms`);
		}
		expect(slow).toEqual([]);
	}, 600_000);

	it('through the plugin class: api.search /re/ clauses (the modal and search: code blocks), every pattern within 2 s', async () => {
		const { plugin } = await ready({ 'Home.md': '# Home\n\nSee [[bait]].\n', 'notes/bait.md': ADVERSARIAL });
		const slow: string[] = [];
		for (const pattern of ALL) {
			const run = await timed(() => plugin.api.search(`/${pattern}/`));
			expect(run.value.status, pattern).not.toBe('failed');
			if (run.ms > GUARD_MS) slow.push(`api.search /${pattern}/: ${Math.round(run.ms)} ms`);
		}
		expect(slow).toEqual([]);
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

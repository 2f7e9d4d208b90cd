/**
 * Tests wait on events, never on clocks: a time threshold or a fixed sleep fails on a loaded
 * machine for code that is fine. Every file under test/ is read with the TypeScript parser and
 * these are refused:
 * - a fixed sleep: `setTimeout` with a delay other than 0, `setInterval`, `sleep(…)`, `delay(…)`,
 *   `pause(…)`, `waitForTimeout(…)`, an import of `timers/promises`;
 * - `vi.waitFor`/`vi.waitUntil` (their deadline is 1 s): wait with `waitFor` of test/helpers/wait.ts;
 * - reading the clock (`performance.now()`, `Date.now()`, `process.hrtime`, `process.uptime()`),
 *   which is how a test measures the time it then asserts;
 * - `toBeLessThan…` on something named as a time (`ms`, `elapsed`, `duration`, `seconds`).
 * Bound work by counting instead (test/helpers/work.ts, or a counter in the code), and wait for a
 * condition with `waitFor`. An exception that is not a sleep nor a threshold — the deadline inside
 * `waitFor`, a file's modification time — carries a comment `clock-ok: <why>` on its line or the
 * line above; a file that only measures and prints (a benchmark) says `clock-ok-file: <why>` at its top.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/paths';

/** Every .ts and .mjs file under `dir`. */
function files(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
		e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
	);
}

const SLEEPS = new Set(['sleep', 'delay', 'pause', 'waitForTimeout']);
const CLOCKS = new Set(['performance.now', 'Date.now', 'process.hrtime', 'process.hrtime.bigint', 'process.uptime']);
const TIME_NAMED = /(ms|Ms|MS|elapsed|duration|seconds|took)\b/;

/** The callee's name as written: `setTimeout`, `window.setTimeout`, `vi.waitFor`, `Date.now`. */
function calleeName(call: ts.CallExpression, source: ts.SourceFile): string {
	return call.expression.getText(source).replace(/\s+/g, '');
}

/** Why `call` waits on or reads a clock, or null. */
function clockUse(call: ts.CallExpression, source: ts.SourceFile): string | null {
	const name = calleeName(call, source);
	const last = name.replace(/^.*\./, '');
	if (last === 'setTimeout') {
		const delay = call.arguments[1];
		const zero = delay === undefined || (ts.isNumericLiteral(delay) && Number(delay.text) === 0);
		return zero ? null : `a fixed sleep (${name} with a delay of ${delay.getText(source)})`;
	}
	if (last === 'setInterval') return `a timer (${name})`;
	if (SLEEPS.has(last)) return `a fixed sleep (${name})`;
	if (name === 'vi.waitFor' || name === 'vi.waitUntil')
		return `${name}, whose deadline is 1 s (use waitFor of test/helpers/wait.ts)`;
	if (CLOCKS.has(name)) return `a clock read (${name}())`;
	if (/^toBeLessThan(OrEqual)?$/.test(last) && ts.isPropertyAccessExpression(call.expression)) {
		const subject = call.expression.expression.getText(source);
		if (TIME_NAMED.test(subject)) return `a time threshold (${subject.slice(0, 60)})`;
	}
	return null;
}

/** `line: why` for each clock use in `text` without a `clock-ok:` reason. */
export function clockProblems(text: string, file = 'file.ts'): string[] {
	if (/clock-ok-file:\s*\S/.test(text)) return [];
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const lines = text.split('\n');
	const excused = (line: number): boolean =>
		/clock-ok:\s*\S/.test(lines[line] ?? '') || /^\s*\/\/.*clock-ok:\s*\S/.test(lines[line - 1] ?? '');
	const found: string[] = [];
	const flag = (node: ts.Node, why: string): void => {
		const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
		if (!excused(line)) found.push(`${line + 1}: ${why}`);
	};
	const visit = (node: ts.Node): void => {
		if (ts.isCallExpression(node)) {
			const why = clockUse(node, source);
			if (why !== null) flag(node, why);
		}
		if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
			if (/^(node:)?timers\/promises$/.test(node.moduleSpecifier.text))
				flag(node, 'timers/promises (fixed sleeps)');
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

describe('tests wait on events, never on clocks', () => {
	it('no test file asserts a time threshold or sleeps a fixed time', () => {
		const test = join(REPO, 'test');
		const problems = files(test).flatMap((file) =>
			clockProblems(readFileSync(file, 'utf8'), file).map((p) => `${relative(REPO, file)}:${p}`),
		);
		expect(problems).toEqual([]);
	});

	it('flags each kind of sleep and time threshold', () => {
		const bad = [
			'await new Promise((r) => setTimeout(r, 200));',
			'window.setTimeout(done, ms);',
			'const beat = setInterval(tick, 1);',
			'await sleep(1000);',
			'await page.waitForTimeout(500);',
			'await vi.waitFor(() => expect(x).toBe(1));',
			'const started = performance.now();',
			'const t = Date.now();',
			'const us = process.hrtime.bigint();',
			'expect(run.ms).toBeLessThan(2000);',
			'expect(elapsed).toBeLessThanOrEqual(5);',
			"import { setTimeout as wait } from 'node:timers/promises';",
		];
		for (const line of bad) expect(clockProblems(line), line).toHaveLength(1);
	});

	it('lets through what is not a sleep nor a threshold, and exceptions that say why', () => {
		const good = [
			'await new Promise((r) => setTimeout(r, 0));',
			'window.setTimeout(marker);',
			"const now = vi.spyOn(Date, 'now');",
			'new TimeSlice(0, yieldFn, Date.now);',
			'expect(results.length).toBeLessThan(5);',
			"const code = 'setInterval(() => {}, 1000)';",
			'const until = performance.now() + deadline; // clock-ok: the stuck-test deadline',
			"// clock-ok: a file's modification time, not a measurement\nadd(path, text, Date.now());",
			'/* clock-ok-file: a benchmark that prints, never asserts */\nconst t = performance.now();',
		];
		for (const text of good) expect(clockProblems(text), text).toEqual([]);
	});
});

/**
 * Clean code (issue 9): files stay small (src/ ≤ 500 lines, main.ts ≤ 120), and no function in src/ is longer than 120 lines unless a comment right above
 * it, starting `// Long:`, says why it stays whole. Functions are found with the TypeScript
 * parser (declarations, methods, arrows and function expressions, nested ones too). Lines are
 * counted on formatted code: every file of src/ must be as Prettier writes it (width 120), so no
 * file stays under a limit by packing long lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const LIMIT = 120;

/** Every .ts file under `dir`. */
function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
		e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
	);
}

/** `file:line name (N lines)` for each function over the limit without a `// Long:` reason. */
function longFunctions(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	const visit = (node: ts.Node): void => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
			const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
			const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
			const lines = end - start + 1;
			const leading = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
			const reasoned = leading.some((c) => /^\/\/\s*Long:/.test(text.slice(c.pos, c.end)));
			const name = node.name !== undefined ? node.name.getText(source) : '(anonymous)';
			if (lines > LIMIT && !reasoned) found.push(`${file}:${start + 1} ${name} (${lines} lines)`);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

describe('formatted source', () => {
	// Its deadline is for a stuck run only: Prettier parses all of src/ (seconds when quiet, a minute when loaded).
	it('every file in src/ is as Prettier formats it, so the line counts below mean something', async () => {
		const unformatted: string[] = [];
		for (const file of sourceFiles('src')) {
			const options = (await prettier.resolveConfig(file)) ?? {};
			if (!(await prettier.check(readFileSync(file, 'utf8'), { ...options, filepath: file })))
				unformatted.push(file);
		}
		expect(unformatted).toEqual([]);
	}, 300_000);
});

describe('function length', () => {
	it(`no function in src/ is over ${LIMIT} lines without a "// Long:" reason above it`, () => {
		expect(sourceFiles('src').flatMap(longFunctions)).toEqual([]);
	});
});

describe('file length (issue 9)', () => {
	it('no file in src/ is over 500 lines, and main.ts (Obsidian wiring only) is at most 120', () => {
		const lines = (file: string): number =>
			readFileSync(file, 'utf8')
				.split('\n')
				.filter((line, i, all) => i < all.length - 1 || line !== '').length;
		expect(sourceFiles('src').filter((file) => lines(file) > 500)).toEqual([]);
		expect(lines(join('src', 'main.ts'))).toBeLessThanOrEqual(120);
	});
});

/**
 * The dependency check (`npm run depcheck`, dependency-cruiser with .dependency-cruiser.mjs) run on
 * a small planted tree in a temporary folder: a circle closed only by a type import and a crossing
 * the layer table forbids are both reported, and a clean tree passes. (`npm test` runs the same
 * check over src/.)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/paths';

const dirs: string[] = [];

afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The escape character that starts a terminal colour code. */
const ESC = String.fromCharCode(27);

/** Runs the project's check over `files` (path → text) planted in a new folder; its exit code and output. */
function check(files: Record<string, string>): { code: number | null; output: string } {
	const dir = mkdtempSync(join(tmpdir(), 'vq-depcheck-'));
	dirs.push(dir);
	const all = {
		'tsconfig.json': '{ "compilerOptions": { "module": "ESNext", "moduleResolution": "bundler" } }',
		...files,
	};
	for (const [path, text] of Object.entries(all)) {
		mkdirSync(dirname(join(dir, path)), { recursive: true });
		writeFileSync(join(dir, path), text);
	}
	const bin = join(REPO, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
	const run = spawnSync(
		process.execPath,
		[bin, 'src', '--config', join(REPO, '.dependency-cruiser.mjs'), '--output-type', 'err'],
		{ cwd: dir, encoding: 'utf8' },
	);
	// Colour codes (a CI terminal may ask for them) are not part of what the check says.
	return { code: run.status, output: `${run.stdout}${run.stderr}`.replaceAll(ESC, '').replace(/\[[0-9;]*m/g, '') };
}

describe('the dependency check', () => {
	it('passes a tree that follows the table and has no circle', () => {
		const result = check({
			'src/core/a.ts': "import { b } from './b';\nexport const a = b + 1;\n",
			'src/core/b.ts': 'export const b = 1;\n',
			'src/node/n.ts': "import { a } from '../core/a';\nexport const n = a;\n",
		});
		expect(result.output).not.toMatch(/error/);
		expect(result.code).toBe(0);
	});

	it('reports a circle that only a type import closes, and an import the layer table forbids', () => {
		const result = check({
			'src/core/a.ts': "import { b } from './b';\nexport interface A { n: number }\nexport const a = b;\n",
			'src/core/b.ts': "import type { A } from './a';\nexport const b: A = { n: 1 };\n",
			'src/core/c.ts': "import { w } from '../warm/w';\nexport const c = w;\n",
			'src/warm/w.ts': 'export const w = 1;\n',
		});
		expect(result.output).toMatch(/no-circular: src\/core\/a\.ts/);
		expect(result.output).toMatch(/layer-core-warm: src\/core\/c\.ts → src\/warm\/w\.ts/);
		expect(result.output).toMatch(/2 dependency violations/);
		expect(result.code).not.toBe(0);
	});
});

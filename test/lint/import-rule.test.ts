/**
 * The dependency rule is enforced by lint, and the probes are generated from the same layer table
 * as the bans (scripts/layers.mjs): for every layer, at every depth its files sit, an import of each
 * layer the table forbids is one lint error, an import of each layer it allows is none, and so for
 * the packages only some layers may use. Lints probe sources in memory (nothing is written).
 */
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import {
	allowedPairs,
	bannedPackages,
	forbiddenPairs,
	LAYERS,
	MAX_DEPTH,
	NODE_BUILTINS,
	PACKAGES,
	upTo,
} from '../../scripts/layers.mjs';
import { REPO } from '../helpers/paths';

const RULE = '@typescript-eslint/no-restricted-imports';

let eslint: ESLint;

beforeAll(() => {
	eslint = new ESLint({
		cwd: REPO,
		// The probe is not on disk, so type-aware parsing is off; only the import rule runs.
		overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
		ruleFilter: ({ ruleId }) => ruleId === RULE,
	});
});

/** The import-rule errors lint reports for `code` placed at `file`. */
async function importErrors(file: string, code: string): Promise<string[]> {
	const [result] = await eslint.lintText(code, { filePath: `${REPO}/${file}` });
	return result!.messages.map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

/** A probe file of layer `name` at `depth` below src/ (0: src/main.ts). */
function probeFile(name: string, depth: number): string {
	if (name === 'main') return 'src/main.ts';
	return `src/${name}/${'sub/'.repeat(depth - 1)}probe.ts`;
}

/** The depths probed: the shallowest and the deepest a file of the layer may sit at. */
function probedDepths(name: string): number[] {
	return name === 'main' ? [0] : [1, MAX_DEPTH];
}

/** `import … from` the module `x` of layer `to`, written from `depth`. */
function importOf(to: string, depth: number): string {
	return to === 'main' ? `import plugin from '${upTo(depth)}main';` : `import { x } from '${upTo(depth)}${to}/x';`;
}

const probes = (pairs: string[][]): [string, string, string][] =>
	pairs.flatMap(([from, to]) =>
		probedDepths(from!).map((depth): [string, string, string] => [
			probeFile(from!, depth),
			to!,
			importOf(to!, depth),
		]),
	);

describe('the layer table', () => {
	it('names each pair once: every pair of layers is either allowed or forbidden', () => {
		const all = [...allowedPairs(), ...forbiddenPairs()].map((p) => p.join('→'));
		expect(new Set(all).size).toBe(all.length);
		expect(all.length).toBe(LAYERS.length * (LAYERS.length - 1));
	});

	it('holds every file of src/ in a layer, no deeper than the bans reach', () => {
		const files = (dir: string): string[] =>
			readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
				e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
			);
		const src = join(REPO, 'src');
		const outside = files(src)
			.map((f) => relative(src, f).split(sep))
			.filter((parts) =>
				parts.length === 1
					? parts[0] !== 'main.ts'
					: !LAYERS.some((l) => l.name === parts[0]) || parts.length - 1 > MAX_DEPTH,
			);
		expect(outside).toEqual([]);
	});
});

describe('the import rule', () => {
	it.each(probes(forbiddenPairs()))('%s may not import %s', async (file, _to, line) => {
		const errors = await importErrors(file, `${line}\nexport const probe = 1;\n`);
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatch(new RegExp(`^${RULE}: .*dependency rule`));
	});

	it.each(probes(allowedPairs()))('%s may import %s', async (file, _to, line) => {
		expect(await importErrors(file, `${line}\nexport const probe = 1;\n`)).toEqual([]);
	});

	it('never takes a folder inside a layer named like another layer for that layer', async () => {
		// src/core/search/x.ts importing '../obsidian/y' reaches src/core/obsidian, which is still core.
		expect(await importErrors('src/core/search/probe.ts', "import { y } from '../obsidian/y';\n")).toEqual([]);
		expect(await importErrors('src/cli/commands/probe.ts', "import { run } from '../main';\n")).toEqual([]);
	});

	const packageProbes = LAYERS.flatMap((l) =>
		PACKAGES.map((p): [string, string, boolean] => [
			l.name,
			p.name,
			bannedPackages(l.name).includes(p.specifiers[0]!),
		]),
	);
	it.each(packageProbes)('%s and the package %s: banned %s', async (name, pkg, banned) => {
		const specifier = pkg === 'Node built-ins' ? 'node:fs' : pkg;
		const errors = await importErrors(
			probeFile(name, probedDepths(name)[0]!),
			`import * as m from '${specifier}';\n`,
		);
		expect(errors).toHaveLength(banned ? 1 : 0);
	});

	it('bans each Node built-in the table names in core', async () => {
		for (const builtin of NODE_BUILTINS.map((b) => b.replace('*', 'promises'))) {
			const errors = await importErrors('src/core/probe.ts', `import * as m from '${builtin}';\n`);
			expect(errors, builtin).toHaveLength(1);
		}
	});
});

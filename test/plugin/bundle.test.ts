/**
 * main.js must run where Obsidian runs, phones included (`isDesktopOnly: false`): no Node
 * modules, and no YAML library (Obsidian has already parsed the frontmatter). We build the plugin
 * bundle here with esbuild's API — Node built-ins left external, exactly as esbuild.config.mjs
 * does, so a stray `import 'fs'` would surface as a `require("fs")` instead of failing the build —
 * and check the output, its inputs, and that it loads with nothing but `obsidian` to require.
 * When `npm run build` has produced main.js, that file is checked the same way.
 */
import { build, type Metafile } from 'esbuild';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as obsidianStub from '../obsidian-stub/index';
import { REPO } from '../helpers/paths';
import { indexWorkerCode } from '../../scripts/index-worker-bundle.mjs';

const NODE_MODULES = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
/** Text only js-yaml (or another YAML library) would put in a bundle. */
const YAML_MARKERS = ['YAMLException', 'tag:yaml.org,2002', 'js-yaml'];

let dir: string;
let code: string;
let metafile: Metafile;

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'vault-query-bundle-'));
	const outfile = join(dir, 'main.js');
	const result = await build({
		absWorkingDir: REPO,
		entryPoints: ['src/main.ts'],
		bundle: true,
		format: 'cjs',
		platform: 'browser',
		target: 'es2021',
		outfile,
		external: ['obsidian', 'electron', '@codemirror/*', '@lezer/*', ...NODE_MODULES],
		treeShaking: true,
		minify: true,
		metafile: true,
		logLevel: 'silent',
	});
	metafile = result.metafile;
	code = readFileSync(outfile, 'utf8');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every module name the bundle requires at run time. */
function requires(source: string): string[] {
	return [...new Set([...source.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]!))].sort();
}

function checkBundle(source: string): void {
	const required = requires(source);
	expect(required.filter((m) => NODE_MODULES.has(m) || m.startsWith('node:'))).toEqual([]);
	expect(required).toEqual(['obsidian']);
	for (const marker of YAML_MARKERS) expect(source.includes(marker), `bundle contains "${marker}"`).toBe(false);
}

/** Evaluates the CJS bundle in a fresh context where only `obsidian` can be required. */
function load(source: string): unknown {
	const module = { exports: {} as Record<string, unknown> };
	const requireOnlyObsidian = (id: string): unknown => {
		if (id === 'obsidian') return obsidianStub;
		throw new Error(`main.js required "${id}"`);
	};
	runInNewContext(source, { module, exports: module.exports, require: requireOnlyObsidian });
	return module.exports.default;
}

describe('main.js (built here with esbuild)', () => {
	it('requires nothing but obsidian, and holds no YAML library', () => {
		checkBundle(code);
	});

	it('is built from core, the Obsidian adapter, the UI and re2js only — never src/node, src/cli or js-yaml', () => {
		const inputs = Object.keys(metafile.inputs);
		expect(inputs).toContain('src/main.ts');
		// re2js (pure JavaScript, no Node or DOM API): the linear-time regex engine; idb: promises over the
		// browser's IndexedDB, where the search index is saved (no Node API either).
		// (node_modules may be a link to another checkout, so the path is matched from node_modules/ on.)
		const packages = inputs
			.filter((p) => p.includes('node_modules/'))
			.map((p) => p.replace(/^.*node_modules\//, ''));
		expect(packages.filter((p) => !p.startsWith('idb/build/'))).toEqual(['re2js/build/index.js']);
		expect(packages.some((p) => p.startsWith('idb/build/'))).toBe(true);
		expect(inputs.filter((p) => /^src\/(node|cli)\//.test(p))).toEqual([]);
		for (const input of inputs)
			expect(input).toMatch(
				/^src\/(core|obsidian|ui)\/|^src\/main\.ts$|node_modules\/re2js\/build\/index\.js$|node_modules\/idb\/build\/[\w-]+\.js$/,
			);
	});

	it('loads with only `obsidian` available and exports the Plugin subclass as default', () => {
		const plugin = load(code);
		expect(typeof plugin).toBe('function');
		expect((plugin as { prototype: unknown }).prototype).toBeInstanceOf(obsidianStub.Plugin);
	});
});

describe.runIf(existsSync(join(REPO, 'main.js')))('main.js at the repository root (npm run build)', () => {
	it('requires nothing but obsidian, and holds no YAML library', () => {
		checkBundle(readFileSync(join(REPO, 'main.js'), 'utf8'));
	});
});

describe('the index worker main.js inlines (scripts/index-worker-bundle.mjs)', () => {
	it('requires nothing, holds no YAML library, and only sets its onmessage when started', async () => {
		const worker = await indexWorkerCode(true);
		expect(requires(worker)).toEqual([]);
		for (const marker of YAML_MARKERS) expect(worker.includes(marker), `worker contains "${marker}"`).toBe(false);
		const self: Record<string, unknown> = {};
		runInNewContext(worker, { self });
		expect(Object.keys(self)).toEqual(['onmessage']);
		expect(typeof self.onmessage).toBe('function');
	});
});

describe.runIf(existsSync(join(REPO, 'main.js')))('the index worker inside main.js (npm run build)', () => {
	it('is inlined as a string (the worker’s own error text is in it)', () => {
		expect(readFileSync(join(REPO, 'main.js'), 'utf8')).toContain('the index worker parses no YAML');
	});
});

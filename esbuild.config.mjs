import esbuild from 'esbuild';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { indexWorkerCode } from './scripts/index-worker-bundle.mjs';

const production = process.argv[2] === 'production';

/** The one version source: package.json (`npm version` writes manifest.json and versions.json from it). */
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

/**
 * The plugin bundle: CJS for Obsidian, no Node modules, no YAML library (Obsidian parsed it). The
 * index worker is bundled first and inlined as a string (src/obsidian/worker-host.ts starts it
 * from a Blob URL), so main.js stays the one file a plugin ships.
 */
const plugin = {
	define: { VAULT_QUERY_INDEX_WORKER: JSON.stringify(await indexWorkerCode(production)) },
	entryPoints: ['src/main.ts'],
	bundle: true,
	format: 'cjs',
	platform: 'browser',
	target: 'es2021',
	outfile: 'main.js',
	external: [
		'obsidian',
		'electron',
		'@codemirror/*',
		'@lezer/*',
		...builtinModules,
		...builtinModules.map((m) => `node:${m}`),
	],
	logLevel: 'info',
	sourcemap: production ? false : 'inline',
	treeShaking: true,
	minify: production,
};

/**
 * The CLI bundle: ESM for Node with every dependency inlined, so `npx vault-query` needs nothing
 * else. Split: `dist/cli.mjs` is the entry and `dist/chunks/` holds what only some commands load
 * with `import()` (the MCP server and its SDK are half the code), so a warm query compiles only
 * what it runs.
 */
const cli = {
	entryPoints: { cli: 'src/cli/bin.ts' },
	bundle: true,
	format: 'esm',
	platform: 'node',
	target: 'node20',
	splitting: true,
	outdir: 'dist',
	outExtension: { '.js': '.mjs' },
	chunkNames: 'chunks/[name]-[hash]',
	banner: { js: '#!/usr/bin/env node' },
	define: { VAULT_QUERY_VERSION: JSON.stringify(version) },
	logLevel: 'info',
	sourcemap: false,
	// Whitespace and syntax only: a smaller file compiles faster on every call, and an internal
	// error's stack still names the functions.
	minifyWhitespace: production,
	minifySyntax: production,
	minifyIdentifiers: false,
};

// Chunks of an earlier build would pile up: the folder is rebuilt whole.
await rm('dist', { recursive: true, force: true });
await Promise.all([esbuild.build(plugin), esbuild.build(cli)]);

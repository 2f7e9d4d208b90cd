import esbuild from 'esbuild';
import { builtinModules } from 'node:module';

const production = process.argv[2] === 'production';

/** The plugin bundle: CJS for Obsidian, no Node modules, no YAML library (Obsidian parsed it). */
const plugin = {
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

/** The CLI bundle: one ESM file for Node with js-yaml inlined, so `npx vault-query` needs nothing else. */
const cli = {
	entryPoints: ['src/cli/main.ts'],
	bundle: true,
	format: 'esm',
	platform: 'node',
	target: 'node20',
	outfile: 'dist/cli.mjs',
	banner: { js: '#!/usr/bin/env node' },
	logLevel: 'info',
	sourcemap: false,
	minify: false,
};

await Promise.all([esbuild.build(plugin), esbuild.build(cli)]);

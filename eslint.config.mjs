// @ts-check
import { defineConfig, globalIgnores } from 'eslint/config';
import obsidianmd from 'eslint-plugin-obsidianmd';
import { restrictedImportsOptions } from 'eslint-plugin-obsidianmd/dist/lib/ruleOptions.js';

const NODE_BUILTINS = [
	'node:*',
	'fs',
	'fs/*',
	'path',
	'os',
	'url',
	'crypto',
	'child_process',
	'worker_threads',
	'module',
	'process',
];

/**
 * The dependency rule (core ← obsidian ← ui, core ← node ← cli/mcp) as lint import bans. We extend
 * obsidianmd's own restricted-imports list rather than replacing it.
 */
function bans(patterns) {
	return [
		'error',
		{
			paths: [...restrictedImportsOptions],
			patterns: [{ group: patterns, message: 'Breaks the dependency rule (docs/DESIGN.md).' }],
		},
	];
}

export default defineConfig([
	globalIgnores(['node_modules/', 'main.js', 'dist/', 'coverage/', 'examples/', 'test-output/', 'bench-output/']),
	...obsidianmd.configs.recommended,
	{
		languageOptions: {
			parserOptions: {
				projectService: { allowDefaultProject: ['eslint.config.mjs'] },
				tsconfigRootDir: import.meta.dirname,
			},
		},
	},
	{
		files: ['src/core/**/*.ts'],
		rules: {
			'@typescript-eslint/no-restricted-imports': bans([
				'obsidian',
				'js-yaml',
				...NODE_BUILTINS,
				'**/node/*',
				'**/obsidian/*',
				'**/ui/*',
				'**/cli/*',
				'**/mcp/*',
			]),
		},
	},
	{
		// The adapter sits under the UI: it may not reach up into it.
		files: ['src/obsidian/**/*.ts'],
		rules: {
			'@typescript-eslint/no-restricted-imports': bans([
				'js-yaml',
				...NODE_BUILTINS,
				'**/node/*',
				'**/cli/*',
				'**/mcp/*',
				'**/ui/*',
			]),
		},
	},
	{
		files: ['src/ui/**/*.ts', 'src/main.ts'],
		rules: {
			'@typescript-eslint/no-restricted-imports': bans([
				'js-yaml',
				...NODE_BUILTINS,
				'**/node/*',
				'**/cli/*',
				'**/mcp/*',
				'**/warm/*',
			]),
		},
	},
	{
		// The Node adapter sits under the CLI and the MCP server: it may not reach up into either.
		files: ['src/node/**/*.ts'],
		rules: {
			'@typescript-eslint/no-restricted-imports': bans([
				'obsidian',
				'**/obsidian/*',
				'**/ui/*',
				'**/cli/*',
				'**/mcp/*',
			]),
		},
	},
	{
		// The Node faces (CLI, MCP server, the warm vault they share) stand on core and the Node adapter, never on Obsidian or the UI.
		files: ['src/cli/**/*.ts', 'src/mcp/**/*.ts', 'src/warm/**/*.ts'],
		rules: { '@typescript-eslint/no-restricted-imports': bans(['obsidian', '**/obsidian/*', '**/ui/*']) },
	},
	{
		// The Node faces (CLI, MCP server, their adapter, tests, scripts) never ships in main.js — a test scans the
		// bundle for Node modules — so the mobile-safety rule does not apply to these files.
		files: [
			'src/node/**/*.ts',
			'src/cli/**/*.ts',
			'src/mcp/**/*.ts',
			'src/warm/**/*.ts',
			'test/**/*.ts',
			'scripts/**/*.mjs',
			'eval/**/*.mjs',
			'*.mjs',
			'vitest.config.ts',
		],
		// Likewise `hardcoded-config-path` (its fix, Vault#configDir, only exists inside Obsidian) and
		// `no-global-this` (Node has no window). Bench and eval scripts import the bundles they just
		// built from computed paths, which `no-unsanitized/method` cannot tell from user input.
		// The plugin face (src/core, src/obsidian, src/ui, src/main.ts) keeps every rule.
		rules: {
			'obsidianmd/no-nodejs-modules': 'off',
			'import/no-nodejs-modules': 'off',
			'obsidianmd/hardcoded-config-path': 'off',
			'obsidianmd/no-global-this': 'off',
			'no-unsanitized/method': 'off',
		},
		languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
	},
	{
		// js-yaml is the design card's choice for the Node face only (the plugin uses Obsidian's parsed
		// frontmatter); it is several times faster here than js-yaml 5 and `yaml`.
		files: ['package.json'],
		rules: {
			'depend/ban-dependencies': [
				'error',
				{ presets: ['native', 'microutilities', 'preferred'], allowed: ['js-yaml'] },
			],
		},
	},
]);

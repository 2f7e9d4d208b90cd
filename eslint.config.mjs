// @ts-check
import { defineConfig, globalIgnores } from 'eslint/config';
import obsidianmd from 'eslint-plugin-obsidianmd';
import { restrictedImportsOptions } from 'eslint-plugin-obsidianmd/dist/lib/ruleOptions.js';
import { depths, filesAt, LAYERS, layerBan, packageBan } from './scripts/layers.mjs';

/**
 * The dependency rule as lint import bans, generated from the layer table (scripts/layers.mjs): for
 * each layer and depth below src/, the specifiers that reach a layer it may not import, and the
 * packages it may not use. We extend obsidianmd's own restricted-imports list rather than replacing it.
 */
function layerBans() {
	const message = 'Breaks the dependency rule (scripts/layers.mjs).';
	return LAYERS.flatMap((from) =>
		depths(from.name).map((depth) => {
			const regexes = [layerBan(from.name, depth), packageBan(from.name)].filter((r) => r !== null);
			return {
				files: [filesAt(from.name, depth)],
				rules: {
					'@typescript-eslint/no-restricted-imports': [
						'error',
						{
							paths: [...restrictedImportsOptions],
							patterns: regexes.map((regex) => ({ regex, message })),
						},
					],
				},
			};
		}),
	);
}

/** The source folders of the Node wing (the CLI, the MCP server and what they stand on). */
const NODE_WING = LAYERS.filter((l) => l.wing === 'node').map((l) => `src/${l.name}/**/*.ts`);

export default defineConfig([
	globalIgnores(['node_modules/', 'main.js', 'dist/', 'coverage/', 'examples/', 'test-output/', 'bench-output/']),
	...obsidianmd.configs.recommended,
	{
		languageOptions: {
			parserOptions: {
				projectService: { allowDefaultProject: ['eslint.config.mjs', '.dependency-cruiser.mjs'] },
				tsconfigRootDir: import.meta.dirname,
			},
		},
	},
	...layerBans(),
	{
		// The Node faces (CLI, MCP server, their adapter, tests, scripts) never ships in main.js — a test scans the
		// bundle for Node modules — so the mobile-safety rule does not apply to these files.
		files: [...NODE_WING, 'test/**/*.ts', 'scripts/**/*.mjs', 'eval/**/*.mjs', '*.mjs', 'vitest.config.ts'],
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
		// The version the build writes into the CLI from package.json (src/cli/build-constants.d.ts).
		files: ['src/cli/**/*.ts'],
		languageOptions: { globals: { VAULT_QUERY_VERSION: 'readonly' } },
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

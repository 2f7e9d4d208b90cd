import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The slow families, in a project of their own (`npm test` runs both; `npm run test:fast` the
 * other): the browser end to end (Chromium), fuzzing, the property and random-sequence runs, the
 * packs and commands on the real vaults of ../shared, and the tests that spawn the built CLI, its
 * background server, the MCP server, the install script or dependency-cruiser as processes. Measured per file on a
 * loaded 2-core machine: each takes 5 s to 90 s (the server and any-vault files the most), where
 * a file of the fast project takes a few seconds at most. A new file belongs here when it spawns
 * processes or takes more than about 5 s; CONTRIBUTING.md says so too.
 */
export const SLOW = [
	'test/e2e/**/*.test.ts',
	'test/fuzz/**/*.test.ts',
	'test/**/*.property.test.ts',
	'test/mcp/**/*.test.ts',
	'test/cli/any-vault.test.ts',
	'test/cli/server.test.ts',
	'test/cli/call-guards.test.ts',
	'test/snapshot/staleness.test.ts',
	'test/snapshot/faults.test.ts',
	'test/pack/vaults.test.ts',
	'test/pack/copy-pack.test.ts',
	'test/plugin/install-plugin.test.ts',
	'test/text/bounded-regex.test.ts',
	'test/lint/dependency-check.test.ts',
	'test/cli/build-identity.test.ts',
	'test/lint/function-length.test.ts',
];

const CORES = availableParallelism();

/** The version the build writes into the CLI (esbuild.config.mjs), from package.json. */
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// `obsidian` has no runtime in npm (types only), so tests alias it to a deliberately minimal
// stub — the policy is written in test/obsidian-stub/README.md.
export default defineConfig({
	define: { VAULT_QUERY_VERSION: JSON.stringify(version) },
	resolve: {
		alias: {
			obsidian: fileURLToPath(new URL('./test/obsidian-stub/index.ts', import.meta.url)),
		},
	},
	test: {
		environment: 'node',
		// A private snapshot cache folder per test file (the CLI caches by default).
		setupFiles: ['test/helpers/cache-env.ts', 'test/helpers/indexeddb-env.ts'],
		// One line when ../shared is missing (its tests skip), or a failure under CI=true.
		globalSetup: ['test/helpers/shared-check.ts'],
		// Deadlines for a stuck test, never a speed target: tests wait on events and count work
		// (test/lint/no-clocks.test.ts), so a loaded machine is slower, not red.
		testTimeout: 60_000,
		hookTimeout: 120_000,
		projects: [
			{
				extends: true,
				test: {
					name: 'fast',
					include: ['test/**/*.test.ts'],
					exclude: SLOW,
					// CPU-bound files in workers: one per core (vitest's default leaves one core idle).
					maxWorkers: CORES,
					sequence: { groupOrder: 0 },
				},
			},
			{
				extends: true,
				test: {
					name: 'slow',
					include: SLOW,
					// After the fast project, and half the cores: these files start processes (the CLI,
					// servers, Chromium) that need cores of their own, and starve each other when crowded.
					maxWorkers: Math.max(1, Math.floor(CORES / 2)),
					sequence: { groupOrder: 1 },
				},
			},
		],
	},
});

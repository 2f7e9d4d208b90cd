import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

// `obsidian` has no runtime in npm (types only), so tests alias it to a deliberately minimal
// stub — the policy is written in test/obsidian-stub/README.md.
export default defineConfig({
	resolve: {
		alias: {
			obsidian: fileURLToPath(new URL('./test/obsidian-stub/index.ts', import.meta.url)),
		},
	},
	test: {
		environment: 'node',
		include: ['test/**/*.test.ts'],
		// A private snapshot cache folder per test file (the CLI caches by default).
		setupFiles: ['test/helpers/cache-env.ts'],
		// One line when ../shared is missing (its tests skip), or a failure under CI=true.
		globalSetup: ['test/helpers/shared-check.ts'],
		testTimeout: 60_000,
		hookTimeout: 120_000,
	},
});

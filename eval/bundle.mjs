// Bundle the search engine and the Node vault adapter on the fly with esbuild (into bench-output/,
// gitignored; never inside a vault) and import it. Shared by scripts/eval.mjs and scripts/bench-search.mjs.
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Bundle `exports` (export lines, paths relative to bench-output/) into bench-output/<name>.mjs
 * and import it. Shared by the eval and the search and pack benchmarks.
 */
export async function bundleAndImport(name, exports) {
	const outDir = join(root, 'bench-output');
	mkdirSync(outDir, { recursive: true });
	const outfile = join(outDir, `${name}.mjs`);
	await build({
		stdin: { contents: exports.join('\n'), resolveDir: outDir, sourcefile: `${name}-entry.ts`, loader: 'ts' },
		bundle: true,
		platform: 'node',
		format: 'esm',
		target: 'node20',
		outfile,
		logLevel: 'error',
		banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
	});
	return import(`${pathToFileURL(outfile).href}?t=${Date.now()}`);
}

/** Bundle src/core/search + src/node/vault-source and import them. */
export function loadEngine() {
	return bundleAndImport('search-engine', [
		"export * from '../src/core/search/search';",
		"export { openVault } from '../src/node/vault-source';",
	]);
}

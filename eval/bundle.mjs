// Bundle the search engine and the Node vault adapter on the fly with esbuild (into bench-output/,
// gitignored; never inside a vault) and import it. Shared by scripts/eval.mjs and scripts/bench-search.mjs.
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Bundle src/core/search + src/node/vault-source and import them. */
export async function loadEngine() {
	const outDir = join(root, 'bench-output');
	mkdirSync(outDir, { recursive: true });
	const entry = join(outDir, 'search-entry.ts');
	const outfile = join(outDir, 'search-engine.mjs');
	await build({
		stdin: {
			contents: [
				"export * from '../src/core/search/search';",
				"export { openVault } from '../src/node/vault-source';",
			].join('\n'),
			resolveDir: outDir,
			sourcefile: entry,
			loader: 'ts',
		},
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

/**
 * The plugin's index worker as one script (src/obsidian/worker-entry.ts bundled for a browser,
 * as an IIFE, no Node module): esbuild.config.mjs inlines it into main.js, where
 * src/obsidian/worker-host.ts starts it from a Blob URL; the plugin's tests run the same code
 * in a Node worker thread.
 */
import esbuild from 'esbuild';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The worker's code; `minify` for a production build. */
export async function indexWorkerCode(minify = false) {
	const result = await esbuild.build({
		absWorkingDir: root,
		entryPoints: [join(root, 'src', 'obsidian', 'worker-entry.ts')],
		bundle: true,
		write: false,
		format: 'iife',
		platform: 'browser',
		target: 'es2021',
		treeShaking: true,
		minify,
		logLevel: 'silent',
	});
	const file = result.outputFiles[0];
	if (file === undefined) throw new Error('the index worker was not bundled');
	return file.text;
}

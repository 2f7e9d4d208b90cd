// @ts-check
/**
 * The layers of src/ and what each may import, written once. From this table come the lint bans
 * (eslint.config.mjs), the cycle and layer check (.dependency-cruiser.cjs) and the probe test
 * (test/lint/import-rule.test.ts: every forbidden pair is a lint error, every allowed one is not).
 *
 *   plugin wing: core ← obsidian ← ui ← main
 *   Node wing:   core ← node ← warm ← mcp ← cli
 *
 * A layer lower in its wing never imports a higher one, and neither wing imports the other.
 */

/**
 * @typedef {object} Layer
 * @property {string} name the folder under src/ (`main`: the file src/main.ts)
 * @property {'plugin' | 'node' | 'both'} wing which program ships it: the plugin's main.js, the Node CLI, or both
 * @property {string[]} imports the layers it may import (besides itself)
 */

/** @type {Layer[]} */
export const LAYERS = [
	{ name: 'core', wing: 'both', imports: [] },
	{ name: 'obsidian', wing: 'plugin', imports: ['core'] },
	{ name: 'ui', wing: 'plugin', imports: ['core', 'obsidian'] },
	{ name: 'main', wing: 'plugin', imports: ['core', 'obsidian', 'ui'] },
	{ name: 'node', wing: 'node', imports: ['core'] },
	{ name: 'warm', wing: 'node', imports: ['core', 'node'] },
	{ name: 'mcp', wing: 'node', imports: ['core', 'node', 'warm'] },
	{ name: 'cli', wing: 'node', imports: ['core', 'node', 'warm', 'mcp'] },
];

/** Node's built-in modules, as an import names them. */
export const NODE_BUILTINS = [
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
 * Packages only some layers may import: Obsidian's API exists only inside Obsidian, Node's modules
 * only in Node, and js-yaml is the Node parser's (the plugin reads Obsidian's parsed frontmatter).
 * @type {{ name: string, specifiers: string[], layers: string[] }[]}
 */
export const PACKAGES = [
	{ name: 'obsidian', specifiers: ['obsidian'], layers: ['obsidian', 'ui', 'main'] },
	{ name: 'js-yaml', specifiers: ['js-yaml'], layers: ['node', 'warm', 'mcp', 'cli'] },
	{ name: 'Node built-ins', specifiers: NODE_BUILTINS, layers: ['node', 'warm', 'mcp', 'cli'] },
];

/** How deep below src/ a source file may sit (src/core/search/x.ts is 2); the lint bans are written per depth. */
export const MAX_DEPTH = 4;

/** Every `[from, to]` pair of distinct layers the table forbids. */
export function forbiddenPairs() {
	return LAYERS.flatMap((from) =>
		LAYERS.filter((to) => to !== from && !from.imports.includes(to.name)).map((to) => [from.name, to.name]),
	);
}

/** Every `[from, to]` pair of distinct layers the table allows. */
export function allowedPairs() {
	return LAYERS.flatMap((from) => from.imports.map((to) => [from.name, to]));
}

/**
 * The package specifiers `name` may not import.
 * @param {string} name
 * @returns {string[]}
 */
export function bannedPackages(name) {
	return PACKAGES.filter((p) => !p.layers.includes(name)).flatMap((p) => p.specifiers);
}

/**
 * The depths (0: src/main.ts; 1: src/core/x.ts; …) at which files of layer `name` sit.
 * @param {string} name
 * @returns {number[]}
 */
export function depths(name) {
	if (name === 'main') return [0];
	return Array.from({ length: MAX_DEPTH }, (_, i) => i + 1);
}

/**
 * The glob of layer `name`'s files at `depth`.
 * @param {string} name
 * @param {number} depth
 */
export function filesAt(name, depth) {
	if (name === 'main') return 'src/main.ts';
	return `src/${name}/${'*/'.repeat(depth - 1)}*.ts`;
}

/**
 * How a file at `depth` below src/ writes the way up to src/ (`./` for src/main.ts, `../` for src/core/x.ts).
 * @param {number} depth
 */
export function upTo(depth) {
	return depth === 0 ? './' : '../'.repeat(depth);
}

/** @param {string} text */
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A regular expression for the specifiers by which a file of layer `from` at `depth` reaches a layer
 * it may not import: written from the file's own depth, so a folder inside a layer that shares a
 * layer's name (src/core/x/obsidian) is never taken for that layer. Null when it may import them all.
 * @param {string} from
 * @param {number} depth
 * @returns {string | null}
 */
export function layerBan(from, depth) {
	const folders = forbiddenPairs()
		.filter(([f, to]) => f === from && to !== 'main')
		.map(([, to]) => to);
	const main = forbiddenPairs().some(([f, to]) => f === from && to === 'main');
	const ways = [
		...(folders.length > 0 ? [`(${folders.join('|')})(/.*)?`] : []),
		...(main ? ['main(\\.[jt]s)?'] : []),
	];
	return ways.length === 0 ? null : `^${escape(upTo(depth))}(${ways.join('|')})$`;
}

/**
 * A regular expression for the package specifiers layer `name` may not import (a `*` in the table: any rest). Null: none.
 * @param {string} name
 * @returns {string | null}
 */
export function packageBan(name) {
	const banned = bannedPackages(name).map((s) => escape(s).replace('\\*', '.*'));
	return banned.length === 0 ? null : `^(${banned.join('|')})$`;
}

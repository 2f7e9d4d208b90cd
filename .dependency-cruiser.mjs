// @ts-check
/**
 * The import graph of src/ checked by dependency-cruiser (`npm run depcheck`, part of `npm test`):
 * no circle of imports, type-only imports included, and no import the layer table
 * (scripts/layers.mjs) forbids — resolved paths, so this also catches what a lint pattern cannot
 * (an import through an alias or a path written in another way).
 */
import { forbiddenPairs } from './scripts/layers.mjs';

/** The files of layer `name`, as a path regex. */
const pathOf = (name) => (name === 'main' ? '^src/main\\.ts$' : `^src/${name}/`);

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
	forbidden: [
		{
			name: 'no-circular',
			severity: 'error',
			comment: 'A circle of imports (type-only ones included) ties its modules into one; open it.',
			from: {},
			to: { circular: true },
		},
		...forbiddenPairs().map(([from, to]) => ({
			name: `layer-${from}-${to}`,
			severity: /** @type {const} */ ('error'),
			comment: `${from} may not import ${to} (scripts/layers.mjs).`,
			from: { path: pathOf(from) },
			to: { path: pathOf(to) },
		})),
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		exclude: { path: '^(node_modules|dist|test)/' },
		// Type-only imports count: a circle through types still means the modules cannot be read apart.
		tsPreCompilationDeps: true,
		tsConfig: { fileName: 'tsconfig.json' },
		enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js'] },
		moduleSystems: ['es6'],
	},
};

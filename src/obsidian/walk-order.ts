/**
 * The Node adapter's walk order — depth-first, names in code-unit order within each folder — for
 * the paths Obsidian lists in its own order, so both faces list (and report skipped files)
 * identically. Sorting 50k whole paths compares long shared prefixes ~800k times (~0.1–0.2 s
 * measured); the paths are put in a tree of folders instead, each folder's names sorted on
 * their own, and the tree walked. As steps, so the plugin can list a large vault in slices.
 */
import { drain } from '../core/steps';

/** Paths put in the tree between two pauses of {@link walkOrderSteps}. */
const PATHS_PER_STEP = 2048; // why: ~2 ms of tree building, well inside a 12 ms slice.

/** A folder: name → sub-folder, or the path of the file of that name. */
type Folder = Map<string, Folder | string>;

/** Comparator of the walk order (the order {@link sortedByWalkOrder} gives). */
export function byWalkOrder(a: string, b: string): number {
	const as = a.split('/');
	const bs = b.split('/');
	const n = Math.min(as.length, bs.length);
	for (let i = 0; i < n; i++) {
		if (as[i] !== bs[i]) return as[i] < bs[i] ? -1 : 1;
	}
	return as.length - bs.length;
}

/** `paths` sorted by {@link byWalkOrder}. */
export function sortedByWalkOrder(paths: readonly string[]): string[] {
	return drain(walkOrderSteps(paths));
}

/** {@link sortedByWalkOrder} as steps: pauses (yields) every few thousand paths; returns the sorted paths. */
export function* walkOrderSteps(paths: readonly string[]): Generator<void, string[], void> {
	const root: Folder = new Map();
	for (let i = 0; i < paths.length; i++) {
		add(root, paths[i]);
		if (i % PATHS_PER_STEP === PATHS_PER_STEP - 1) yield;
	}
	const out: string[] = [];
	// Depth-first with an explicit stack of name lists (each sorted when its folder is entered).
	const stack: { folder: Folder; names: string[]; next: number }[] = [{ folder: root, names: [...root.keys()].sort(), next: 0 }];
	let sinceYield = 0;
	while (stack.length > 0) {
		const top = stack[stack.length - 1];
		if (top.next === top.names.length) {
			stack.pop();
			continue;
		}
		const entry = top.folder.get(top.names[top.next++]);
		if (typeof entry === 'string') out.push(entry);
		else if (entry !== undefined) {
			stack.push({ folder: entry, names: [...entry.keys()].sort(), next: 0 });
			sinceYield += entry.size;
		}
		if (++sinceYield >= PATHS_PER_STEP) {
			sinceYield = 0;
			yield;
		}
	}
	return out;
}

/** Put one path in the tree (a file and a folder never share a name inside one folder). */
function add(root: Folder, path: string): void {
	let folder = root;
	let start = 0;
	for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', start)) {
		const name = path.slice(start, slash);
		let child = folder.get(name);
		if (child === undefined || typeof child === 'string') {
			child = new Map();
			folder.set(name, child);
		}
		folder = child;
		start = slash + 1;
	}
	folder.set(path.slice(start), path);
}

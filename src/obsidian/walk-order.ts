/**
 * The Node adapter's walk order — depth-first, names in code-unit order within each folder — for
 * the files Obsidian keeps in its own order, so both faces list (and report skipped files)
 * identically. Obsidian's folder tree (`vault.getRoot()`) is walked, each folder's children
 * sorted on their own: no listing of the whole vault in one call (`getMarkdownFiles()` over 56k
 * files held the main thread 50–65 ms in the harness) and no sort of whole paths (~0.1–0.2 s at
 * 50k). As steps, so the plugin can list a large vault in slices.
 */
import { TFile, TFolder, type TAbstractFile } from 'obsidian';

/** Entries visited between two pauses of {@link filesInWalkOrderSteps}. */
const ENTRIES_PER_STEP = 2048; // why: ~2 ms of walking, well inside a 12 ms slice.

/** Comparator of the walk order, on whole paths (what {@link filesInWalkOrderSteps} gives). */
export { byWalkOrder } from '../core/paths';

/** A folder's children by name, in code-unit order (a file and a folder never share a name in one folder). */
function byName(children: readonly TAbstractFile[]): TAbstractFile[] {
	return [...children].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The files under `root` that `keep` accepts, in walk order, as steps: pauses every few thousand entries. */
export function* filesInWalkOrderSteps(root: TFolder, keep: (file: TFile) => boolean): Generator<void, TFile[], void> {
	const out: TFile[] = [];
	// Depth-first with an explicit stack of child lists (each sorted when its folder is entered).
	const stack: { children: TAbstractFile[]; next: number }[] = [{ children: byName(root.children), next: 0 }];
	let sinceYield = 0;
	while (stack.length > 0) {
		const top = stack[stack.length - 1]!;
		if (top.next === top.children.length) {
			stack.pop();
			continue;
		}
		const child = top.children[top.next++];
		if (child instanceof TFile) {
			if (keep(child)) out.push(child);
		} else if (child instanceof TFolder) {
			stack.push({ children: byName(child.children), next: 0 });
			sinceYield += child.children.length; // the sort's share of the work
		}
		if (++sinceYield >= ENTRIES_PER_STEP) {
			sinceYield = 0;
			yield;
		}
	}
	return out;
}

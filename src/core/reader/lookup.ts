import { baseName, isInFolder } from '../paths';
import { closest } from '../suggest';
import type { ReaderScope } from './scope';

/** What a slug lookup found: the note (or null), the paths tried in order, and near names when nothing matched. */
export interface LookupOutcome {
	path: string | null;
	tried: string[];
	suggestions: string[];
}

/** `[[x]]`, `x.md`, ` x ` → `x`. */
function cleanSlug(slug: string): string {
	const bare = slug
		.trim()
		.replace(/^\[\[|\]\]$/g, '')
		.replace(/^\/+/, '');
	return bare.toLowerCase().endsWith('.md') ? bare.slice(0, -3) : bare;
}

/**
 * The seed's lookup: `<folder>/<slug>.md` in each scoped folder in order, first match wins. A
 * note nested deeper in that folder (`skill-lab/finance/<slug>.md`) is the folder's fallback, since
 * Obsidian users nest freely; the whole-vault scope is one folder, the root. Names are matched
 * exactly, as the file system does; a near miss comes back as a suggestion, never as a guess.
 */
export function lookupSlug(scope: ReaderScope, slug: string): LookupOutcome {
	const wanted = cleanSlug(slug);
	const notes = scope.ctx.scope.notes;
	const prefixes = scope.folders.length > 0 ? scope.folders : [''];
	const tried: string[] = [];
	for (const prefix of prefixes) {
		const exact = `${prefix}${wanted}.md`;
		tried.push(exact);
		const found =
			notes.find((path) => path === exact) ??
			notes.find((path) => isInFolder(path, prefix) && path.endsWith(`/${wanted}.md`));
		if (found !== undefined) return { path: found, tried, suggestions: [] };
	}
	const near = closest(baseName(wanted), notes.map(baseName));
	return { path: null, tried, suggestions: near.map((name) => `did you mean slug "${name}"?`) };
}

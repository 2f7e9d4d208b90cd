import type { SkippedFile } from '../contract';
import type { QueryContext } from '../query/context';
import type { Schema } from '../schema/types';
import { matchesWhere, type Predicate } from './where';

/**
 * The filter operation: every note in scope whose frontmatter satisfies every predicate, in walk
 * order. Notes without frontmatter cannot match and are listed as skipped (seed: "count them in
 * the skipped list"); unreadable notes and malformed frontmatter are the engine's skipped list.
 */
export function filterNotes(
	ctx: QueryContext,
	predicates: readonly Predicate[],
	schema: Schema,
): { hits: string[]; noFrontmatter: SkippedFile[] } {
	const hits: string[] = [];
	const noFrontmatter: SkippedFile[] = [];
	for (const path of ctx.scope.notes) {
		if (ctx.source.getSkipReason(path) !== null || ctx.source.getFrontmatterError(path) !== null) continue;
		const frontmatter = ctx.source.getMetadata(path)?.frontmatter;
		if (!frontmatter) noFrontmatter.push({ path, reason: 'no frontmatter' });
		else if (matchesWhere(frontmatter, predicates, schema)) hits.push(path);
	}
	return { hits, noFrontmatter };
}

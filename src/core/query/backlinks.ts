import type { LinkResult } from '../contract';
import type { QueryContext } from './context';
import type { QueryOutcome } from './envelope';

/** Notes in scope linking to `target` (a resolved note path), each marked body/frontmatter/both. */
export function backlinksQuery(ctx: QueryContext, target: string): QueryOutcome {
	const hits = ctx.graph.backlinks(target).map((ref) => ({ path: ref.path, source: ref.source }));
	return { hits, dependsOnFrontmatter: true };
}

/** The outgoing links of `sourcePath`, deduplicated, each resolved (vault path) or not (null). */
export function linksQuery(ctx: QueryContext, sourcePath: string): LinkResult[] {
	return ctx.graph.forward(sourcePath);
}

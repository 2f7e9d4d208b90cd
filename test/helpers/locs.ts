import type { CachedMetadata, Loc } from '../../src/core/metadata';

/** Every position (Loc) in a CachedMetadata; frontmatter values are user data, not positions. */
export function allLocs(meta: CachedMetadata): Loc[] {
	const out: Loc[] = [];
	const visit = (v: unknown): void => {
		if (Array.isArray(v)) v.forEach(visit);
		else if (typeof v === 'object' && v !== null) {
			const o = v as Record<string, unknown>;
			if (typeof o.line === 'number' && typeof o.col === 'number' && typeof o.offset === 'number')
				out.push(o as unknown as Loc);
			else for (const [k, x] of Object.entries(o)) if (k !== 'frontmatter') visit(x);
		}
	};
	visit(meta);
	return out;
}

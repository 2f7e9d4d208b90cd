import { closest } from '../suggest';
import { yamlScalars } from '../yaml-values';
import type { QueryContext } from './context';
import type { Hit, QueryOutcome } from './envelope';
import type { PropQuery } from './types';

/** A YAML scalar as text for comparison; `[[Note]]` wrappers removed so `author=Note` matches a link property. */
function scalarText(value: unknown): string | null {
	if (value === null || value === undefined) return null;
	if (typeof value === 'string')
		return value
			.trim()
			.replace(/^\[\[(.*?)(\|.*)?\]\]$/, '$1')
			.normalize('NFC')
			.toLowerCase();
	if (typeof value === 'number' || typeof value === 'boolean') return String(value).toLowerCase();
	return null;
}

/** The scalars of a property value as compared text: a list contributes each item (membership), nested lists flattened (bounded: yaml-values.ts). */
function scalarsOf(value: unknown): string[] {
	const out: string[] = [];
	for (const v of yamlScalars(value)) {
		const text = scalarText(v);
		if (text !== null) out.push(text);
	}
	return out;
}

/** Whether a property value satisfies the query: equality (case-insensitive) or substring; lists by membership. */
export function propertyMatches(value: unknown, query: PropQuery): boolean {
	const scalars = scalarsOf(value);
	if (query.value === undefined) return scalars.some((s) => s !== '');
	const wanted = query.value.trim().normalize('NFC').toLowerCase();
	return query.match === 'contains' ? scalars.some((s) => s.includes(wanted)) : scalars.some((s) => s === wanted);
}

/**
 * Notes whose frontmatter `key` matches. Keys are exact (Obsidian keeps key case), so a
 * near-miss key is answered with a "did you mean" instead of a silent empty list.
 */
export function propQuery(ctx: QueryContext, query: PropQuery): QueryOutcome {
	const hits: Hit[] = [];
	let withKey = 0;
	for (const path of ctx.scope.notes) {
		// A source that can tell from encoded frontmatter that the key is absent saves decoding it.
		if (ctx.source.lacksProperty?.(path, query.key) === true) continue;
		const frontmatter = ctx.source.getMetadata(path)?.frontmatter;
		if (!frontmatter || !Object.prototype.hasOwnProperty.call(frontmatter, query.key)) continue;
		withKey++;
		if (propertyMatches(frontmatter[query.key], query)) hits.push({ path });
	}
	const suggestions: string[] = [];
	const limitations: string[] = [];
	if (withKey === 0) {
		const keys = new Set<string>();
		for (const path of ctx.scope.notes)
			for (const key of Object.keys(ctx.source.getMetadata(path)?.frontmatter ?? {})) keys.add(key);
		for (const key of closest(query.key, keys)) suggestions.push(`did you mean property "${key}"?`);
		limitations.push(`No note in scope has a property named "${query.key}"`);
	} else if (hits.length === 0 && query.value !== undefined) {
		const values = new Set<string>();
		for (const path of ctx.scope.notes)
			for (const s of scalarsOf(ctx.source.getMetadata(path)?.frontmatter?.[query.key])) values.add(s);
		for (const value of closest(query.value, values)) suggestions.push(`did you mean ${query.key}=${value}?`);
	}
	return { hits, suggestions, limitations, dependsOnFrontmatter: true };
}

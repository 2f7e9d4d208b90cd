/**
 * How Obsidian turns the text between `[[` and `]]` into `link` and `displayText`; shared by
 * body wikilinks/embeds and frontmatter links.
 */

/** The indexed parts of a wikilink. */
export interface WikilinkParts {
	link: string;
	displayText: string;
}

/** `link` split on `#`, empty parts dropped, joined with " > " (`a#h1#h2` → `a > h1 > h2`). */
export function defaultDisplayText(link: string): string {
	let hash = link.indexOf('#');
	if (hash < 0) return link;
	let out = '';
	let from = 0;
	for (;;) {
		if (hash > from) out = out.length === 0 ? link.slice(from, hash) : out + ' > ' + link.slice(from, hash);
		if (hash === link.length) return out;
		from = hash + 1;
		hash = link.indexOf('#', from);
		if (hash < 0) hash = link.length;
	}
}

/** Parse the inside of `[[…]]`; null when it is empty (`[[]]` is not a link). */
export function parseWikilinkInner(raw: string): WikilinkParts | null {
	const inner = raw.trim();
	if (inner.length === 0) return null;
	// A `|` in first position is part of the link (`[[|alias]]` links to "|alias"): Obsidian
	// only splits at a bar that has something before it.
	const bar = inner.indexOf('|');
	if (bar <= 0) return { link: inner, displayText: defaultDisplayText(inner) };
	let link = inner.slice(0, bar).trimEnd();
	// In tables the bar is written `\|`; the backslash belongs to the table, not the link.
	if (link.charCodeAt(link.length - 1) === 92) link = link.slice(0, -1).trimEnd();
	const alias = inner.slice(bar + 1).trim();
	return { link, displayText: alias.length > 0 ? alias : defaultDisplayText(link) };
}

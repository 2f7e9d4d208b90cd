/**
 * Prose and link text: what a section *says* versus what it *points at*. Seed rule 5 ("metadata
 * is not evidence … a claim needs a quote from the body") extends to addresses written in the
 * body: "Still open: [[research/copilot-data-handling]]" names a note about Copilot data
 * handling, it says nothing about it. So the text a pack grades and quotes is split in two:
 * - **prose**: the text a reader reads as sentences, with link syntax blanked out;
 * - **link text**: the words inside link syntax — a wikilink's display text, or its target
 *   when it has none (`#`/`^` as spaces); a Markdown link's text; bare URLs; inline `#tags`.
 *   Embeds (`![[…]]`, `![…](…)`), wikilink targets behind a display text and Markdown link
 *   URLs are dropped altogether: they are addresses the reader never reads.
 * Link text still counts, but weaker ({@link LINK_WEIGHT}): a section whose words for a
 * sub-question are only link text can be at most `partial` (grade.ts), and it scores and quotes
 * below prose. A question sentence ("What do we know about X?") restates what is asked rather
 * than answering it, so it ranks below declarative sentences holding the same words
 * ({@link QUESTION_WEIGHT}).
 */

/** Weight of a key word met only in link text, against 1 for prose (scores and quote ranking). */
export const LINK_WEIGHT = 0.3; // why: the same as a title/tag match (retrieve.ts META_WEIGHT): an address guides retrieval, it is not evidence.
/** Factor on a question sentence's quote score. */
export const QUESTION_WEIGHT = 0.5; // why: below a declarative sentence with the same words, yet above one holding them only as link text (0.3).

/**
 * Link syntax, in the order tried at each position: embeds, wikilinks (group 1: inside),
 * Markdown links (group 2: text), bare URLs, inline tags (group 4, after group 3: a text start
 * or a space; at least one non-digit, as Obsidian tags are).
 */
const LINK_SYNTAX = /!\[\[[^\]]*\]\]|!\[[^\]]*\]\([^)]*\)|\[\[([^\]]*)\]\]|\[([^\]]*)\]\([^)]*\)|\bhttps?:\/\/[^\s<>)\]]+|(^|\s)(#(?=[\p{L}\p{N}_/-]*[\p{L}_/-])[\p{L}\p{N}_/-]+)/gu;

/** A text split into its prose and its link text (see the module comment). */
export interface ReaderText {
	/** The text with link syntax blanked out (a space each). */
	prose: string;
	/** The words of the link syntax, one link per line; '' when there is none. */
	links: string;
}

/**
 * Split a text into prose and link text.
 *
 * @example
 * readerText('Still open: [[research/copilot-data-handling]], see #security.');
 * // { prose: 'Still open:  , see  .', links: 'research/copilot-data-handling\n#security' }
 */
export function readerText(text: string): ReaderText {
	if (!text.includes('[') && !text.includes('#') && !text.includes('://')) return { prose: text, links: '' };
	const links: string[] = [];
	const prose = text.replace(LINK_SYNTAX, (m: string, wiki: string | undefined, label: string | undefined, before: string | undefined, tag: string | undefined) => {
		if (m.startsWith('!')) return ' ';
		if (wiki !== undefined) {
			const bar = wiki.indexOf('|');
			links.push(bar >= 0 ? wiki.slice(bar + 1) : wiki.replace(/#\^?/g, ' '));
		} else if (label !== undefined) links.push(label);
		else if (tag !== undefined) {
			links.push(tag);
			return `${before ?? ''} `;
		} else links.push(m);
		return ' ';
	});
	return { prose, links: links.join('\n') };
}

/** Whether a sentence is a question: it ends with `?` or `？` (closing quotes, brackets and emphasis aside). */
export function isQuestion(sentence: string): boolean {
	return /[?？][\s"'”’»」』)）\]*_]*$/u.test(sentence);
}

import { Notice } from 'obsidian';

/**
 * The "Copy schema draft" command: the plugin's face of `vault-query schema draft`. The draft
 * goes to the clipboard, never into the vault; the user pastes it where the reader looks.
 */

/** What the command needs: the draft (once the vault is indexed) and where the reader looks for it. */
export interface SchemaDraftContext {
	draft: () => Promise<string>;
	schemaPath: () => string;
	/** Where the Markdown goes (default: the system clipboard). */
	writeClipboard?: (text: string) => Promise<void>;
}

/** Copy the draft and say where to paste it; a failure is a notice, not a silent nothing. */
export async function copySchemaDraft(ctx: SchemaDraftContext): Promise<string | null> {
	try {
		const text = await ctx.draft();
		await (ctx.writeClipboard ?? ((markdown) => navigator.clipboard.writeText(markdown)))(text);
		new Notice(
			`Schema draft copied. Review it, then paste it into a note at ${ctx.schemaPath()} for property filters.`,
		);
		return text;
	} catch (error) {
		console.error('Vault Query: schema draft failed', error);
		new Notice(`The schema draft failed: ${error instanceof Error ? error.message : String(error)}`);
		return null;
	}
}

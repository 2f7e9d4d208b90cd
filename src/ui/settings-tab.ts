import { PluginSettingTab, Setting, type App, type Plugin, type SettingDefinitionItem } from 'obsidian';
import { settingsGroups, type SettingsHost } from './settings-rows';

/**
 * The settings tab. minAppVersion is 1.4.0, so `display()` draws it imperatively; Obsidian 1.13+
 * uses `getSettingDefinitions()` instead (and indexes the rows for its settings search). Both
 * come from the same rows (settings-rows.ts), so the two renderings cannot drift apart.
 */
export class VaultQuerySettingTab extends PluginSettingTab {
	/** `host` gives the rows the live settings, saving, the index status and the rebuild. */
	constructor(
		app: App,
		plugin: Plugin,
		private readonly host: SettingsHost,
	) {
		super(app, plugin);
	}

	/** Headings (`setHeading()`) and rows, for Obsidian before 1.13. */
	override display(): void {
		this.draw();
	}

	/** Draws the rows again when the tab is open (a profile or a synced change rewrote several values). */
	redraw(): void {
		if (this.containerEl.isConnected) this.draw();
	}

	/** The imperative rendering. */
	private draw(): void {
		const { containerEl } = this;
		containerEl.empty();
		containerEl.addClass('vault-query-settings');
		for (const group of settingsGroups(this.host)) {
			new Setting(containerEl).setName(group.heading).setHeading();
			for (const row of group.rows) row.render(new Setting(containerEl).setName(row.name).setDesc(row.desc));
		}
	}

	/** The same rows as declarative groups, for Obsidian 1.13+ (rendered by each row's own function). */
	override getSettingDefinitions(): SettingDefinitionItem[] {
		return settingsGroups(this.host).map((group) => ({
			type: 'group' as const,
			heading: group.heading,
			items: group.rows.map((row) => ({
				name: row.name,
				desc: row.desc,
				render: (setting: Setting) => row.render(setting),
			})),
		}));
	}
}

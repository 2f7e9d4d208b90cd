import type { Command } from '../command';
import { packCommand } from './pack';
import { filterCommand, graphCommand, lookupCommand, textSearchCommand } from './reader';
import { backlinksCommand, grepCommand, linksCommand, propCommand, tagCommand } from './structural';

/** Every CLI command, in the order `--help` lists them. */
export const COMMANDS: Command[] = [tagCommand, propCommand, backlinksCommand, linksCommand, grepCommand, lookupCommand, filterCommand, graphCommand, textSearchCommand, packCommand];

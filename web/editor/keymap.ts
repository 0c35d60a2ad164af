/**
 * Keyboard shortcuts. Undo and redo are y-prosemirror's (its UndoManager tracks only this editor's
 * own changes: another editor's typing or a REST edit is never undone here).
 */
import { baseKeymap, chainCommands, exitCode } from 'prosemirror-commands';
import { undoInputRule } from 'prosemirror-inputrules';
import { keymap } from 'prosemirror-keymap';
import type { Plugin } from 'prosemirror-state';
import { redoCommand, undoCommand } from 'y-prosemirror';
import * as cmd from './commands.ts';

/** Shortcut names shown in the toolbar's tooltips. */
const mac = typeof navigator !== 'undefined' && /Mac|iP(hone|[oa]d)/.test(navigator.platform);
export const MOD = mac ? '⌘' : 'Ctrl';

export function journalKeymaps(onLink: () => void): Plugin[] {
  const keys: Record<string, import('prosemirror-state').Command> = {
    'Mod-z': undoCommand,
    'Mod-y': redoCommand,
    'Shift-Mod-z': redoCommand,
    Backspace: undoInputRule,
    'Mod-b': cmd.toggleStrong,
    'Mod-i': cmd.toggleEm,
    'Mod-e': cmd.toggleCode,
    'Mod-`': cmd.toggleCode,
    'Shift-Mod-x': cmd.toggleStrike,
    'Mod-k': () => {
      onLink();
      return true;
    },
    Enter: chainCommands(cmd.codeFenceOnEnter, cmd.splitItem),
    Tab: chainCommands(cmd.goToCell(1), cmd.sinkItem),
    'Shift-Tab': chainCommands(cmd.goToCell(-1), cmd.liftItem),
    'Mod-]': cmd.sinkItem,
    'Mod-[': cmd.liftItem,
    'Shift-Enter': chainCommands(exitCode, cmd.insertHardBreak),
    'Mod-Enter': chainCommands(exitCode, cmd.insertHardBreak),
    'Shift-Mod-0': cmd.setParagraph,
    'Shift-Mod-\\': cmd.toggleCodeBlock,
    'Shift-Mod-8': cmd.toggleList('bullet'),
    'Shift-Mod-9': cmd.toggleList('ordered'),
    'Shift-Mod-7': cmd.toggleList('task'),
    'Shift-Mod-.': cmd.toggleBlockquote,
  };
  for (let level = 1; level <= 6; level++) keys[`Shift-Mod-${level}`] = cmd.setHeading(level);
  return [keymap(keys), keymap(baseKeymap)];
}

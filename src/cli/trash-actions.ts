/** The subcommands of the trash (`sessions rm|trash|restore|prune|empty-trash`). */
export const TRASH_ACTIONS = ['rm', 'trash', 'restore', 'prune', 'empty-trash'] as const;
export type TrashAction = (typeof TRASH_ACTIONS)[number];

export function isTrashAction(action: string): action is TrashAction {
  return (TRASH_ACTIONS as readonly string[]).includes(action);
}

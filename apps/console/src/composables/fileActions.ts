import { ref, type Ref } from 'vue';
import { useI18n } from 'vue-i18n';
import { api, call } from '../api/client';
import type { ConsoleFile, FolderNode } from '../api/types';
import { useConfirmStore } from '../stores/confirm';
import { useToastsStore } from '../stores/toasts';
import { findFolder } from './folders';
import { useApiError } from './useApiError';

export interface FileActionHooks {
  /** The folder tree, for naming the move target. */
  folders: Ref<FolderNode[]>;
  onMoved: (file: ConsoleFile) => unknown;
  onTrashed: (file: ConsoleFile) => unknown;
}

/** Moving a file to another folder and putting it in the trash, the same from the list and from a file's page. */
export function useFileActions(hooks: FileActionHooks) {
  const { t } = useI18n();
  const confirm = useConfirmStore();
  const toasts = useToastsStore();
  const { describe } = useApiError();

  /** The file the move dialog is open for. */
  const moving = ref<ConsoleFile | null>(null);
  const moveBusy = ref(false);
  const moveError = ref<unknown>(null);

  function folderName(id: string | null | undefined): string {
    return id ? (findFolder(hooks.folders.value, id)?.name ?? '—') : t('files.root');
  }

  function startMove(file: ConsoleFile): void {
    moving.value = file;
    moveError.value = null;
  }

  function cancelMove(): void {
    moving.value = null;
    moveError.value = null;
  }

  async function move(target: string | null): Promise<void> {
    const file = moving.value;
    if (!file) return;
    moveBusy.value = true;
    moveError.value = null;
    try {
      const moved = (
        await call(api().PATCH('/api/console/files/{id}', { params: { path: { id: file.id } }, body: { folderId: target } }))
      ).file;
      moving.value = null;
      toasts.success(t('files.moved', { name: moved.name, folder: folderName(target) }));
      await hooks.onMoved(moved);
    } catch (caught) {
      moveError.value = caught;
    } finally {
      moveBusy.value = false;
    }
  }

  /** `activeShares` is what the confirmation warns about: those links stop working. */
  async function trash(file: ConsoleFile, activeShares: number): Promise<void> {
    const ok = await confirm.ask({
      title: t('files.trashTitle'),
      message: activeShares
        ? t('files.trashMessageShared', { name: file.name, count: activeShares })
        : t('files.trashMessage', { name: file.name }),
      confirmLabel: t('files.moveToTrash'),
      danger: true,
    });
    if (!ok) return;
    try {
      await call(api().DELETE('/api/console/files/{id}', { params: { path: { id: file.id } } }));
      toasts.success(t('files.trashed', { name: file.name }));
      await hooks.onTrashed(file);
    } catch (caught) {
      toasts.error(describe(caught));
    }
  }

  return { moving, moveBusy, moveError, folderName, startMove, cancelMove, move, trash };
}

import { ref, type Ref } from 'vue';
import { useI18n } from 'vue-i18n';
import { useRouter } from 'vue-router';
import { api, call } from '../api/client';
import type { FolderNode } from '../api/types';
import { useConfirmStore } from '../stores/confirm';
import { useToastsStore } from '../stores/toasts';
import { useApiError } from './useApiError';

/** Creating a folder in the open one, renaming the open folder, and putting it in the trash. */
export function useFolderActions(folderId: Ref<string | null>, current: Ref<FolderNode | null>, reload: () => Promise<void>) {
  const { t } = useI18n();
  const router = useRouter();
  const confirm = useConfirmStore();
  const toasts = useToastsStore();
  const { describe } = useApiError();

  const dialog = ref<null | 'create' | 'rename'>(null);
  const busy = ref(false);
  const error = ref<unknown>(null);

  function open(mode: 'create' | 'rename'): void {
    dialog.value = mode;
  }

  function close(): void {
    dialog.value = null;
    error.value = null;
  }

  async function save(name: string): Promise<void> {
    busy.value = true;
    error.value = null;
    try {
      if (dialog.value === 'create') {
        const created = (await call(api().POST('/api/console/folders', { body: { name, parentId: folderId.value } }))).folder;
        toasts.success(t('files.folderCreated', { name: created.name }));
      } else if (folderId.value) {
        await call(api().PATCH('/api/console/folders/{id}', { params: { path: { id: folderId.value } }, body: { name } }));
        toasts.success(t('files.folderRenamed'));
      }
      dialog.value = null;
      await reload();
    } catch (caught) {
      error.value = caught;
    } finally {
      busy.value = false;
    }
  }

  async function trash(): Promise<void> {
    const folder = current.value;
    if (!folder) return;
    const ok = await confirm.ask({
      title: t('files.trashFolderTitle'),
      message: t('files.trashFolderMessage', { name: folder.name }),
      confirmLabel: t('files.moveToTrash'),
      danger: true,
    });
    if (!ok) return;
    try {
      await call(api().DELETE('/api/console/folders/{id}', { params: { path: { id: folder.id } } }));
      toasts.success(t('files.folderTrashed', { name: folder.name }));
      await router.push({ name: 'file-list', query: folder.parentId ? { folder: folder.parentId } : {} });
      await reload();
    } catch (caught) {
      toasts.error(describe(caught));
    }
  }

  return { dialog, busy, error, open, close, save, trash };
}

import { computed, onMounted, ref, watch, type Ref } from 'vue';
import { api, call } from '../api/client';
import type { ConsoleFile, FolderNode } from '../api/types';
import { useUploadsStore } from '../stores/uploads';
import { findFolder, folderPath } from './folders';
import { usePolling } from './usePolling';

export const FILE_PAGE_SIZE = 20;

/** The folder tree and one page of the files in a folder (or of a search), kept fresh as uploads land and scans end. */
export function useFileListing(folderId: Ref<string | null>) {
  const uploads = useUploadsStore();
  const folders = ref<FolderNode[]>([]);
  const files = ref<ConsoleFile[]>([]);
  const total = ref(0);
  const page = ref(1);
  const query = ref('');
  const loading = ref(true);
  const error = ref<unknown>(null);

  const current = computed(() => findFolder(folders.value, folderId.value));
  const breadcrumb = computed(() => folderPath(folders.value, folderId.value));
  const searching = computed(() => query.value.trim().length > 0);
  const subfolders = computed(() =>
    searching.value || page.value > 1
      ? []
      : [...(folderId.value ? (current.value?.children ?? []) : folders.value)].sort((a, b) => a.name.localeCompare(b.name)),
  );
  const pageCount = computed(() => Math.max(1, Math.ceil(total.value / FILE_PAGE_SIZE)));
  const scanning = computed(() => files.value.some((file) => file.scanStatus === 'PENDING' || file.scanStatus === 'SCAN_ERROR'));

  async function loadFolders(): Promise<void> {
    folders.value = (await call(api().GET('/api/console/folders'))).folders;
  }

  async function loadFiles(): Promise<void> {
    const q = query.value.trim();
    const result = await call(
      api().GET('/api/console/files', {
        params: {
          query: { ...(q ? { q } : { folderId: folderId.value ?? 'root' }), page: page.value, pageSize: FILE_PAGE_SIZE },
        },
      }),
    );
    files.value = result.files;
    total.value = result.total;
  }

  async function load(initial = false): Promise<void> {
    if (initial) loading.value = true;
    try {
      await Promise.all([loadFolders(), loadFiles()]);
      error.value = null;
    } catch (caught) {
      if (initial || files.value.length === 0) error.value = caught;
    } finally {
      loading.value = false;
    }
  }

  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  watch(query, () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      page.value = 1;
      void load();
    }, 250);
  });
  watch(page, () => void load());
  watch(folderId, () => {
    page.value = 1;
    void load(true);
  });
  watch(
    () => uploads.landed,
    () => void load(),
  );
  onMounted(() => load(true));
  // Scan results arrive from the worker; refresh while any listed file is still being scanned.
  usePolling(() => (scanning.value ? loadFiles() : undefined), 2500);

  return {
    folders,
    files,
    total,
    page,
    query,
    loading,
    error,
    current,
    breadcrumb,
    searching,
    subfolders,
    pageCount,
    load,
    loadFolders,
    loadFiles,
  };
}

import { computed, onMounted, ref, watch } from 'vue';
import { useI18n } from 'vue-i18n';
import { api, call, SharedownApiError } from '../api/client';
import type { ConsoleFile, FileContent, FileVersion, FolderNode, Share } from '../api/types';
import { useConfirmStore } from '../stores/confirm';
import { useToastsStore } from '../stores/toasts';
import { useUploadsStore } from '../stores/uploads';
import { useApiError } from './useApiError';
import { usePolling } from './usePolling';

const unsettled = (status: string) => status === 'PENDING' || status === 'SCAN_ERROR';

/** One file with its versions, shares and previewed content, kept fresh while a scan runs or a version lands. */
export function useFileDetail(id: () => string) {
  const { t } = useI18n();
  const confirm = useConfirmStore();
  const toasts = useToastsStore();
  const uploads = useUploadsStore();
  const { describe } = useApiError();

  const file = ref<ConsoleFile | null>(null);
  const versions = ref<FileVersion[]>([]);
  const shares = ref<Share[]>([]);
  const folders = ref<FolderNode[]>([]);
  const content = ref<FileContent | null>(null);
  const contentError = ref<unknown>(null);
  /** A version other than the current one shown in the preview, or null for the current. */
  const previewVersion = ref<string | null>(null);
  const loading = ref(true);
  const error = ref<unknown>(null);

  // File and versions are read side by side; keep polling until both agree the scan is over.
  const scanning = computed(
    () => (file.value !== null && unsettled(file.value.scanStatus)) || versions.value.some((v) => unsettled(v.scanStatus)),
  );
  const activeShares = computed(() => shares.value.filter((share) => !share.revokedAt));
  const infected = computed(() => contentError.value instanceof SharedownApiError && contentError.value.code === 'INFECTED');

  async function loadContent(): Promise<void> {
    contentError.value = null;
    try {
      content.value = await call(
        api().GET('/api/console/files/{id}/content', {
          params: { path: { id: id() }, query: previewVersion.value ? { versionId: previewVersion.value } : {} },
        }),
      );
    } catch (caught) {
      content.value = null;
      contentError.value = caught;
    }
  }

  async function load(initial = false): Promise<void> {
    if (initial) loading.value = true;
    try {
      const path = { params: { path: { id: id() } } };
      const [loaded, history, fileShares, tree] = await Promise.all([
        call(api().GET('/api/console/files/{id}', path)),
        call(api().GET('/api/console/files/{id}/versions', path)),
        call(api().GET('/api/console/shares', { params: { query: { fileId: id() } } })),
        call(api().GET('/api/console/folders')),
      ]);
      const versionChanged = file.value?.currentVersionId !== loaded.file.currentVersionId;
      file.value = loaded.file;
      versions.value = history.versions;
      shares.value = fileShares.shares;
      folders.value = tree.folders;
      error.value = null;
      if (initial || (versionChanged && !previewVersion.value)) await loadContent();
    } catch (caught) {
      if (initial || !file.value) error.value = caught;
    } finally {
      loading.value = false;
    }
  }

  watch(id, () => load(true));
  watch(previewVersion, () => void loadContent());
  watch(
    () => uploads.landed,
    () => void load(),
  );
  onMounted(() => load(true));
  usePolling(() => (scanning.value ? load() : undefined), 2500);

  function uploadVersion(list: FileList): void {
    if (list.length) uploads.enqueue([list[0]!], { versionOf: id() });
  }

  async function restore(version: FileVersion): Promise<void> {
    const ok = await confirm.ask({
      title: t('versions.restoreTitle', { no: version.versionNo }),
      message: t('versions.restoreMessage', { no: version.versionNo }),
      confirmLabel: t('versions.restore'),
    });
    if (!ok) return;
    try {
      const result = await call(
        api().POST('/api/console/files/{id}/versions/{versionId}/restore', {
          params: { path: { id: id(), versionId: version.id } },
        }),
      );
      toasts.success(t('versions.restored', { no: version.versionNo, newNo: result.version.versionNo }));
      previewVersion.value = null;
      await load();
      await loadContent();
    } catch (caught) {
      toasts.error(describe(caught));
    }
  }

  return {
    file,
    versions,
    shares,
    folders,
    content,
    contentError,
    previewVersion,
    loading,
    error,
    activeShares,
    infected,
    load,
    loadContent,
    uploadVersion,
    restore,
  };
}

import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { Schemas } from '@sharedown/contract';
import { api, call, setTabWorkspace, tabWorkspace } from '../api/client';
import { leaveTo } from '../router/leave';

export type Workspace = Schemas['WorkspaceDto'];
export type WorkspaceRole = Workspace['role'];

/**
 * The workspaces of the signed-in account and the one this tab acts in. The choice lives in the
 * tab (sessionStorage, read by the api client at every call), so another tab keeps its own.
 */
export const useWorkspaceStore = defineStore('workspace', () => {
  const workspaces = ref<Workspace[]>([]);
  const loaded = ref(false);
  const selectedId = ref<string | null>(tabWorkspace());
  let pending: Promise<void> | null = null;

  /** The workspace the tab acts in: the chosen shared one, else the personal one (listed first). */
  const current = computed<Workspace | null>(
    () =>
      workspaces.value.find((workspace) => workspace.id === selectedId.value) ??
      workspaces.value.find((workspace) => workspace.personal) ??
      null,
  );
  const shared = computed(() => current.value !== null && !current.value.personal);
  const role = computed<WorkspaceRole>(() => current.value?.role ?? 'OWNER');
  /** Documents, links and requests may be changed (every role but VIEWER). */
  const canWrite = computed(() => role.value !== 'VIEWER');
  /** Members and invitations may be managed (OWNER and ADMIN). */
  const canManage = computed(() => role.value === 'OWNER' || role.value === 'ADMIN');

  async function fetchList(): Promise<void> {
    workspaces.value = (await call(api().GET('/api/workspaces'))).workspaces;
    loaded.value = true;
  }

  /**
   * Reads the list; a tab still naming a workspace it is no longer a member of (removed, left in
   * another tab, deleted) goes back to its personal workspace and loads the page again there.
   */
  async function load(): Promise<void> {
    pending ??= fetchList().finally(() => (pending = null));
    await pending;
    const chosen = selectedId.value;
    if (chosen && !workspaces.value.some((workspace) => workspace.id === chosen && !workspace.personal)) {
      choose(null);
      leaveTo(`${window.location.pathname}${window.location.search}`);
    }
  }

  function choose(id: string | null): void {
    const personal = workspaces.value.find((workspace) => workspace.personal);
    const next = id && id !== personal?.id ? id : null;
    setTabWorkspace(next);
    selectedId.value = next;
  }

  /** Acts in another workspace: the whole console loads again there (`path`: where to land). */
  function switchTo(id: string | null, path = `${window.location.pathname}${window.location.search}`): void {
    choose(id);
    leaveTo(path);
  }

  async function create(name: string, segment: string): Promise<Workspace> {
    const { workspace } = await call(api().POST('/api/workspaces', { body: { name, segment } }));
    workspaces.value = [...workspaces.value, workspace];
    return workspace;
  }

  async function rename(id: string, name: string): Promise<Workspace> {
    const { workspace } = await call(api().PATCH('/api/workspaces/{id}', { params: { path: { id } }, body: { name } }));
    workspaces.value = workspaces.value.map((item) => (item.id === id ? workspace : item));
    return workspace;
  }

  async function remove(id: string): Promise<void> {
    await call(api().DELETE('/api/workspaces/{id}', { params: { path: { id } } }));
    workspaces.value = workspaces.value.filter((item) => item.id !== id);
  }

  return {
    workspaces,
    loaded,
    selectedId,
    current,
    shared,
    role,
    canWrite,
    canManage,
    load,
    refresh: fetchList,
    choose,
    switchTo,
    create,
    rename,
    remove,
  };
});

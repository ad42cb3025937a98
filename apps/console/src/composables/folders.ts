import type { FolderNode } from '../api/types';

export interface FlatFolder {
  id: string;
  name: string;
  depth: number;
  parentId: string | null;
}

/** Depth-first, siblings by name: the order the tree shows them in. */
export function flattenFolders(nodes: FolderNode[], depth = 0, out: FlatFolder[] = []): FlatFolder[] {
  for (const node of [...nodes].sort((a, b) => a.name.localeCompare(b.name))) {
    out.push({ id: node.id, name: node.name, depth, parentId: node.parentId });
    flattenFolders(node.children, depth + 1, out);
  }
  return out;
}

/** The folders from the top down to `id` (inclusive), for breadcrumbs; empty for the root. */
export function folderPath(nodes: FolderNode[], id: string | null): FolderNode[] {
  if (!id) return [];
  for (const node of nodes) {
    if (node.id === id) return [node];
    const below = folderPath(node.children, id);
    if (below.length) return [node, ...below];
  }
  return [];
}

export function findFolder(nodes: FolderNode[], id: string | null): FolderNode | null {
  if (!id) return null;
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findFolder(node.children, id);
    if (found) return found;
  }
  return null;
}

/** `id` and everything below it: a folder cannot move into itself or its descendants. */
export function subtreeIds(nodes: FolderNode[], id: string): Set<string> {
  const root = findFolder(nodes, id);
  const ids = new Set<string>();
  const walk = (node: FolderNode) => {
    ids.add(node.id);
    node.children.forEach(walk);
  };
  if (root) walk(root);
  return ids;
}

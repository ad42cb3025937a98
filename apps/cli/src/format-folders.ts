import type { Schemas } from '@sharedown/contract';
import { scanLabel } from './format.js';
import { formatBytes, formatDate, type Output } from './output.js';

export type FolderNode = Schemas['FolderNodeDto'];
export type FolderView = Schemas['FolderDto'];
export type TrashView = Schemas['TrashListDto'];

export interface TreeRow {
  /** The folder's name after the branch lines of its depth. */
  label: string;
  id: string;
}

/** The folder tree as `tree` draws it: top-level folders flush left, sub-folders on branches. */
export function folderTreeRows(nodes: FolderNode[]): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (children: FolderNode[], prefix: string, top: boolean) => {
    children.forEach((node, index) => {
      const last = index === children.length - 1;
      rows.push({ label: `${prefix}${top ? '' : last ? '└── ' : '├── '}${node.name}`, id: node.id });
      walk(node.children, top ? '' : `${prefix}${last ? '    ' : '│   '}`, false);
    });
  };
  walk(nodes, '', true);
  return rows;
}

export function printFolderTree(out: Output, nodes: FolderNode[]): void {
  const rows = folderTreeRows(nodes);
  if (!rows.length) {
    out.line(out.color.dim('(no folders)'));
    return;
  }
  const width = Math.max(...rows.map((row) => row.label.length));
  for (const row of rows) out.line(`${row.label.padEnd(width)}  ${out.color.dim(row.id)}`);
}

export function printFolder(out: Output, folder: FolderView): void {
  out.fields([
    ['id', folder.id],
    ['name', folder.name],
    ['parent', folder.parentId ?? out.color.dim('(top level)')],
    ['created', formatDate(folder.createdAt)],
  ]);
}

export function printTrash(out: Output, trash: TrashView): void {
  if (!trash.folders.length && !trash.files.length) {
    out.line(out.color.dim('The trash is empty.'));
    return;
  }
  out.line(out.color.bold('Folders'));
  out.table(
    ['ID', 'NAME', 'FILES', 'DELETED'],
    trash.folders.map((folder) => [folder.id, folder.name, folder.fileCount, formatDate(folder.deletedAt) ?? '']),
  );
  out.line();
  out.line(out.color.bold('Files'));
  out.table(
    ['ID', 'NAME', 'KIND', 'SIZE', 'SCAN', 'DELETED'],
    trash.files.map((file) => [
      file.id,
      file.name,
      file.kind,
      formatBytes(file.sizeBytes),
      scanLabel(out, file.scanStatus),
      formatDate(file.deletedAt) ?? '',
    ]),
  );
}

/** English messages: sharing a folder as a collection, and the documents each visit opened. */
export default {
  collections: {
    search: 'Search by file, folder or link',
    fileOrFolder: 'File or folder',
    label: 'collection',
    shareFolder: 'Share folder',
    shareFolderHelp: 'One link for every clean document in this folder and its sub-folders, including ones added later.',
    folderShares: 'Folder links',
    explainer:
      'Visitors get one link to every clean document in this folder and its sub-folders: documents added later appear, documents moved out or trashed disappear. Every setting applies to the collection as a whole; opening it is the visit.',
    noVersionPin: 'A collection always shows the latest clean version of each document; no version can be pinned.',
    summary: 'They see the folder’s clean documents, including ones added later.',
    backToFolder: 'Back to the folder',
    openFolder: 'Open folder',
    filteredBy: 'Links of the folder “{name}”',
    filteredByFolder: 'Links of one folder',
    clearFilter: 'Show all links',
  },
  documentReads: {
    deleted: '(deleted document)',
    title: 'Documents opened ({count})',
    line: '{time} · {depth} read',
    completed: 'read to the end',
  },
  documentReading: {
    title: 'Documents read',
    help: '{visits, plural, one {From the one visit by a person in this period, the same reads the visit log below lists.} other {From the # visits by people in this period, the same reads the visit log below lists.}}',
    partial: 'Only the newest visits of the period are counted.',
    document: 'Document',
    readers: 'Readers',
    opens: 'Times opened',
  },
};

/** Chinese messages: sharing a folder as a collection, and the documents each visit opened. */
export default {
  collections: {
    search: '按文件、文件夹或链接搜索',
    fileOrFolder: '文件或文件夹',
    label: '合集',
    shareFolder: '分享文件夹',
    shareFolderHelp: '一个链接包含此文件夹及其子文件夹中所有安全的文档，之后添加的文档也包括在内。',
    folderShares: '文件夹的链接',
    explainer:
      '访客通过一个链接查看此文件夹及其子文件夹中所有安全的文档：之后添加的文档会出现，移出或放入回收站的文档会消失。所有设置作用于整个合集；打开合集即计为一次访问。',
    noVersionPin: '合集始终显示每个文档最新的安全版本，无法固定版本。',
    summary: '他们看到文件夹中安全的文档，包括之后添加的文档。',
    backToFolder: '返回文件夹',
    openFolder: '打开文件夹',
    filteredBy: '文件夹“{name}”的链接',
    filteredByFolder: '某个文件夹的链接',
    clearFilter: '显示全部链接',
  },
  documentReads: {
    deleted: '（已删除的文档）',
    title: '打开的文档（{count}）',
    line: '{time} · 读到 {depth}',
    completed: '已读完',
  },
  documentReading: {
    title: '已读文档',
    help: '取自本期间 {visits} 次真人访问，与下方访问记录中的阅读记录相同。',
    partial: '只统计了本期间最新的访问。',
    document: '文档',
    readers: '读者',
    opens: '打开次数',
  },
};

/** Japanese messages: sharing a folder as a collection, and the documents each visit opened. */
export default {
  collections: {
    search: 'ファイル、フォルダー、リンクで検索',
    fileOrFolder: 'ファイルまたはフォルダー',
    label: 'コレクション',
    shareFolder: 'フォルダーを共有',
    shareFolderHelp: 'このフォルダーとサブフォルダーにある安全な文書すべてへの 1 つのリンク。後から追加した文書も含みます。',
    folderShares: 'フォルダーのリンク',
    explainer:
      '訪問者は 1 つのリンクで、このフォルダーとサブフォルダーにある安全な文書すべてを見られます。後から追加した文書は表示され、移動またはゴミ箱に入れた文書は消えます。すべての設定はコレクション全体に適用され、開くことが 1 回の訪問です。',
    noVersionPin: 'コレクションは各文書の最新の安全なバージョンを常に表示します。バージョンは固定できません。',
    summary: 'フォルダーの安全な文書を見られます（後から追加したものも含む）。',
    backToFolder: 'フォルダーに戻る',
    openFolder: 'フォルダーを開く',
    filteredBy: 'フォルダー「{name}」のリンク',
    filteredByFolder: 'あるフォルダーのリンク',
    clearFilter: 'すべてのリンクを表示',
  },
  documentReads: {
    deleted: '（削除された文書）',
    title: '開いた文書（{count}）',
    line: '{time} · {depth} まで読了',
    completed: '最後まで読了',
  },
  documentReading: {
    title: '読まれた文書',
    help: 'この期間の人による閲覧 {visits} 件から集計しています。下の閲覧ログと同じ記録です。',
    partial: '期間内の新しい閲覧のみを数えています。',
    document: '文書',
    readers: '読者',
    opens: '開いた回数',
  },
};

/** Japanese messages: reading by section on a share's analytics page. */
export default {
  shareSections: {
    document: '「{name}」',
    title: 'セクション別の閲読',
    help: '各セクション（h1〜h3 の見出しで始まる）について、読者数はそのセクションが 1 秒以上画面に表示された訪問の数です。バーが短くなるところで読者が離れています。中央値の秒数は読者がどこで時間をかけているかを示します。',
    none: 'まだセクションの閲読はありません。テキスト文書にはセクションがなく、トラッキング拒否の訪問者は計測されません。',
    heading: 'セクション',
    readers: '読者',
    median: '中央値',
    seconds: '{seconds} 秒',
    untitled: 'セクション {index}（見出しテキストなし）',
    lingered: '最長',
  },
};

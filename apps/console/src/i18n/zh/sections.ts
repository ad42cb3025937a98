/** Chinese messages: reading by section on a share's analytics page. */
export default {
  shareSections: {
    document: '《{name}》',
    title: '按章节阅读',
    help: '每个章节（由 h1–h3 标题开始）：读者数是该章节在屏幕上停留至少一秒的访问数——条形变短处即读者离开处；中位秒数显示读者停留最久的地方。',
    none: '还没有章节阅读记录。纯文本文档没有章节；要求不被跟踪的访客不会被测量。',
    heading: '章节',
    readers: '读者',
    median: '中位时长',
    seconds: '{seconds} 秒',
    untitled: '第 {index} 节（标题无文字）',
    lingered: '停留最久',
  },
};

/** Chinese messages: a share's agreement, the acceptances of it, and watermarks that name the reader. */
export default {
  agreementForm: {
    title: '协议',
    toggle: '要求访客接受一份协议',
    help: '条款或保密协议，使用 Markdown 编写。访客在密码和登录之后、看到任何内容之前接受它；接受一直有效，直到你修改文本。',
    textLabel: '协议文本（Markdown）',
    placeholder: '## 保密\n\n打开这些文档即表示你同意对其内容保密。',
    count: '{count} / {max} 个字符',
    requireName: '读者必须输入自己的姓名',
    requireNameHelp: '读者以 {min} 到 {max} 个字符的姓名签署；姓名随接受记录保存，也可以出现在水印中。',
    editHelp: '修改文本后，每位读者都需要重新接受；关闭则移除协议。之前的接受记录仍列在本页。',
    errEmpty: '请填写访客要接受的文本。',
    errLength: '协议长度必须在 {min} 到 {max} 个字符之间。',
    summary: '在显示任何内容之前，他们先接受你的协议。',
    summaryNamed: '在显示任何内容之前，他们先签名接受你的协议。',
  },
  readerWatermark: {
    placeholders:
      '占位符，每次查看时填入：{email} 已登录读者验证过的邮箱，{name} 协议上签署的姓名，{date} 日期（UTC），{ip} 读者的网络。无可填内容的占位符会被省略；长度限制按输入的文本计算。',
    errControl: '换行符和其他控制字符无法绘制。',
  },
  acceptances: {
    title: '接受记录',
    hint: '谁接受了协议，最新的在前。每一行以摘要标明所接受的文本。',
    hintRemoved: '此链接已不再要求协议；之前文本的接受记录仍然保留。',
    exportCsv: '导出 CSV',
    empty: '还没有人接受协议。',
    at: '时间',
    name: '姓名',
    email: '邮箱',
    ipPrefix: '网络',
    userAgent: '设备',
    digest: '协议摘要',
    earlierText: '旧文本',
    more: '加载更多',
  },
};

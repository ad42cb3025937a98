/** Japanese messages: a share's agreement, the acceptances of it, and watermarks that name the reader. */
export default {
  agreementForm: {
    title: '同意事項',
    toggle: '訪問者に同意事項への同意を求める',
    help: '利用条件や秘密保持契約を Markdown で記述します。訪問者はパスワードとサインインの後、何かを見る前に同意します。同意はテキストを変更するまで有効です。',
    textLabel: '同意事項のテキスト（Markdown）',
    placeholder: '## 秘密保持\n\nこれらの文書を開くことで、内容を秘密として扱うことに同意したものとみなします。',
    count: '{count} / {max} 文字',
    requireName: '読者に氏名の入力を求める',
    requireNameHelp: '{min}〜{max} 文字の氏名で署名します。氏名は同意とともに記録され、透かしにも表示できます。',
    editHelp:
      'テキストを変更すると、すべての読者に再度同意を求めます。オフにすると同意事項を削除します。以前の同意はこのページに残ります。',
    errEmpty: '訪問者が同意するテキストを入力してください。',
    errLength: '同意事項は {min}〜{max} 文字にしてください。',
    summary: '何かが表示される前に、同意事項に同意します。',
    summaryNamed: '何かが表示される前に、氏名を入力して同意事項に同意します。',
  },
  readerWatermark: {
    placeholders:
      'プレースホルダーは表示のたびに置き換えられます：{email} サインインした読者の確認済みアドレス、{name} 同意事項に署名した氏名、{date} 日付（UTC）、{ip} 読者のネットワーク。値のないものは省かれます。文字数の上限は入力したテキストのまま数えます。',
    errControl: '改行などの制御文字は描画できません。',
  },
  acceptances: {
    title: '同意の記録',
    hint: '同意事項に同意した人（新しい順）。各行はダイジェストで同意したテキストを示します。',
    hintRemoved: 'このリンクは同意事項を求めなくなりました。以前のテキストへの同意は残っています。',
    exportCsv: 'CSV をエクスポート',
    empty: 'まだ誰も同意していません。',
    at: '日時',
    name: '氏名',
    email: 'メールアドレス',
    ipPrefix: 'ネットワーク',
    userAgent: 'デバイス',
    digest: '同意事項のダイジェスト',
    earlierText: '以前のテキスト',
    more: 'さらに読み込む',
  },
};

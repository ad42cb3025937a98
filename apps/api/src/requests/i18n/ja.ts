import type { RequestMessages } from '../request-text.js';

/** The document request pages' words in Japanese. */
export default {
  page: {
    askedBy: '{owner} さんからドキュメントのアップロードを依頼されています',
    received: '受け取り済み：{taken} / {max}',
    largest: '1 ファイルの上限：{size}',
    until: '締め切り：{date}',
    kinds: 'UTF-8 のテキストファイル（.md、.markdown、.html、.htm、.txt、.text）をアップロードできます。',
  },
  form: {
    file: 'ファイルを選択',
    orPaste: 'またはテキストを貼り付け',
    text: 'テキスト',
    fileName: 'ファイル名（例：notes.md）',
    name: 'お名前',
    email: 'メールアドレス',
    emailOptional: 'メールアドレス（任意）',
    message: 'メッセージ（任意）',
    submit: 'アップロード',
  },
  problems: {
    name: 'お名前を入力してください（100 文字以内）。',
    email: '有効なメールアドレスを入力してください。',
    message: 'メッセージは 2000 文字以内にしてください。',
    document: 'ファイルを選択するか、テキストを貼り付けてファイル名を付けてください。',
    both: 'ファイルの選択かテキストの貼り付けのどちらか一方にしてください。',
  },
  closed: { title: '依頼は終了しました', body: '依頼者がこのドキュメント依頼を終了しました。これ以上アップロードできません。' },
  expired: { title: '依頼の期限切れ', body: 'このドキュメント依頼は締め切りを過ぎました。これ以上アップロードできません。' },
  full: {
    title: '依頼は完了しました',
    body: 'このドキュメント依頼は必要なドキュメントをすべて受け取りました。これ以上アップロードできません。',
  },
  receipt: {
    title: 'アップロードの控え',
    intro: 'このページのアドレスを保存してください。あなたのアップロードだけが表示されます。',
    request: '依頼',
    file: 'ファイル',
    size: 'サイズ',
    at: '受付日時',
    status: '状態',
    checking: '安全チェック中',
    received: '受け取り済み',
    infected: 'ウイルススキャンで拒否されました',
    refresh: '最新の状態はページを再読み込みして確認してください。',
  },
} satisfies RequestMessages;

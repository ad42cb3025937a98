import type { RequestMessages } from '../request-text.js';

/** The document request pages' words in German. */
export default {
  page: {
    askedBy: '{owner} bittet Sie, Dokumente hochzuladen',
    received: 'Erhalten: {taken} von {max}',
    largest: 'Größte Datei: {size}',
    until: 'Offen bis: {date}',
    kinds: 'Sie können Textdateien (.md, .markdown, .html, .htm, .txt, .text) in UTF-8 hochladen.',
  },
  form: {
    file: 'Datei auswählen',
    orPaste: 'Oder Text einfügen',
    text: 'Text',
    fileName: 'Dateiname (zum Beispiel notizen.md)',
    name: 'Ihr Name',
    email: 'Ihre E-Mail-Adresse',
    emailOptional: 'Ihre E-Mail-Adresse (optional)',
    message: 'Nachricht (optional)',
    submit: 'Hochladen',
  },
  problems: {
    name: 'Bitte geben Sie Ihren Namen an (höchstens 100 Zeichen).',
    email: 'Bitte geben Sie eine gültige E-Mail-Adresse an.',
    message: 'Die Nachricht darf höchstens 2.000 Zeichen lang sein.',
    document: 'Bitte wählen Sie eine Datei aus oder fügen Sie Text ein und geben Sie ihm einen Dateinamen.',
    both: 'Bitte wählen Sie entweder eine Datei oder fügen Sie Text ein, nicht beides.',
  },
  closed: {
    title: 'Anfrage geschlossen',
    body: 'Die anfragende Person hat diese Anfrage geschlossen. Sie nimmt keine Uploads mehr an.',
  },
  expired: {
    title: 'Anfrage abgelaufen',
    body: 'Die Frist dieser Dokumentanfrage ist abgelaufen. Sie nimmt keine Uploads mehr an.',
  },
  full: {
    title: 'Anfrage vollständig',
    body: 'Diese Dokumentanfrage hat alle erbetenen Dokumente erhalten. Sie nimmt keine Uploads mehr an.',
  },
  receipt: {
    title: 'Upload-Beleg',
    intro: 'Bewahren Sie die Adresse dieser Seite auf: Sie zeigt nur Ihren eigenen Upload.',
    request: 'Anfrage',
    file: 'Datei',
    size: 'Größe',
    at: 'Erhalten am',
    status: 'Status',
    checking: 'Wird geprüft',
    received: 'Erhalten',
    infected: 'Vom Virenscanner abgelehnt',
    refresh: 'Laden Sie die Seite neu, um den aktuellen Stand zu sehen.',
  },
} satisfies RequestMessages;

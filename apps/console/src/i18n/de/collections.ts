/** German messages: sharing a folder as a collection, and the documents each visit opened. */
export default {
  collections: {
    search: 'Nach Datei, Ordner oder Link suchen',
    fileOrFolder: 'Datei oder Ordner',
    label: 'Sammlung',
    shareFolder: 'Ordner teilen',
    shareFolderHelp: 'Ein Link zu allen sauberen Dokumenten dieses Ordners und seiner Unterordner, auch zu später hinzugefügten.',
    folderShares: 'Links des Ordners',
    explainer:
      'Besucher erhalten einen Link zu allen sauberen Dokumenten dieses Ordners und seiner Unterordner: später hinzugefügte erscheinen, verschobene oder gelöschte verschwinden. Jede Einstellung gilt für die Sammlung als Ganzes; ihr Öffnen ist der Besuch.',
    noVersionPin:
      'Eine Sammlung zeigt stets die neueste saubere Version jedes Dokuments; eine Version lässt sich nicht festlegen.',
    summary: 'Sie sehen die sauberen Dokumente des Ordners, auch später hinzugefügte.',
    backToFolder: 'Zurück zum Ordner',
    openFolder: 'Ordner öffnen',
    filteredBy: 'Links des Ordners „{name}“',
    filteredByFolder: 'Links eines Ordners',
    clearFilter: 'Alle Links anzeigen',
  },
  documentReads: {
    deleted: '(gelöschtes Dokument)',
    title: 'Geöffnete Dokumente ({count})',
    line: '{time} · {depth} gelesen',
    completed: 'zu Ende gelesen',
  },
  documentReading: {
    title: 'Gelesene Dokumente',
    help: '{visits, plural, one {Aus dem einen Besuch eines Menschen in diesem Zeitraum, dieselben Lesevorgänge wie im Besuchsprotokoll unten.} other {Aus den # Besuchen von Menschen in diesem Zeitraum, dieselben Lesevorgänge wie im Besuchsprotokoll unten.}}',
    partial: 'Gezählt werden nur die neuesten Besuche des Zeitraums.',
    document: 'Dokument',
    readers: 'Leser',
    opens: 'Mal geöffnet',
  },
};

/** German messages: a share's agreement, the acceptances of it, and watermarks that name the reader. */
export default {
  agreementForm: {
    title: 'Vereinbarung',
    toggle: 'Besucher eine Vereinbarung annehmen lassen',
    help: 'Bedingungen oder eine Geheimhaltungsvereinbarung, in Markdown. Besucher nehmen sie nach Passwort und Anmeldung an, bevor sie etwas sehen; die Annahme gilt, bis Sie den Text ändern.',
    textLabel: 'Text der Vereinbarung (Markdown)',
    placeholder: '## Vertraulichkeit\n\nWer diese Dokumente öffnet, verpflichtet sich, sie vertraulich zu behandeln.',
    count: '{count} / {max} Zeichen',
    requireName: 'Leser müssen ihren Namen eingeben',
    requireNameHelp:
      'Sie unterschreiben mit einem Namen von {min} bis {max} Zeichen; er wird mit der Annahme gespeichert und kann im Wasserzeichen erscheinen.',
    editHelp:
      'Ein geänderter Text lässt jeden Leser erneut annehmen; ausgeschaltet entfällt die Vereinbarung. Frühere Annahmen bleiben auf dieser Seite aufgeführt.',
    errEmpty: 'Geben Sie den Text ein, den Besucher annehmen.',
    errLength: 'Die Vereinbarung muss {min} bis {max} Zeichen lang sein.',
    summary: 'Sie nehmen Ihre Vereinbarung an, bevor etwas angezeigt wird.',
    summaryNamed: 'Sie nehmen Ihre Vereinbarung mit ihrem Namen an, bevor etwas angezeigt wird.',
  },
  readerWatermark: {
    placeholders:
      'Platzhalter, bei jedem Aufruf ausgefüllt: {email} die bestätigte Adresse des angemeldeten Lesers, {name} der in der Vereinbarung unterschriebene Name, {date} das Datum (UTC), {ip} das Netz des Lesers. Ein Platzhalter ohne Wert entfällt; die Grenze zählt den Text wie eingegeben.',
    errControl: 'Zeilenumbrüche und andere Steuerzeichen können nicht gezeichnet werden.',
  },
  acceptances: {
    title: 'Annahmen',
    hint: 'Wer die Vereinbarung angenommen hat, neueste zuerst. Jede Zeile nennt den angenommenen Text mit seinem Hashwert.',
    hintRemoved: 'Dieser Link verlangt keine Vereinbarung mehr; die Annahmen früherer Texte bleiben erhalten.',
    exportCsv: 'CSV exportieren',
    empty: 'Noch niemand hat die Vereinbarung angenommen.',
    at: 'Wann',
    name: 'Name',
    email: 'E-Mail',
    ipPrefix: 'Netz',
    userAgent: 'Gerät',
    digest: 'Hashwert der Vereinbarung',
    earlierText: 'früherer Text',
    more: 'Mehr laden',
  },
};

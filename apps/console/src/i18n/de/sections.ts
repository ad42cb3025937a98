/** German messages: reading by section on a share's analytics page. */
export default {
  shareSections: {
    document: 'In „{name}“',
    title: 'Lesen nach Abschnitten',
    help: 'Für jeden Abschnitt (eine Überschrift h1–h3 beginnt einen): Leser sind die Besuche, bei denen er mindestens eine Sekunde auf dem Bildschirm war – wo die Balken kürzer werden, hören Leser auf; der Median in Sekunden zeigt, wo sie verweilen.',
    none: 'Noch keine Abschnitte gelesen. Textdokumente haben keine; Besucher, die kein Tracking wünschen, werden nicht gemessen.',
    heading: 'Abschnitt',
    readers: 'Leser',
    median: 'Median',
    seconds: '{seconds} s',
    untitled: 'Abschnitt {index} (Überschrift ohne Text)',
    lingered: 'am längsten',
  },
};

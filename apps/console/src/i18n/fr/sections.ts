/** French messages: reading by section on a share's analytics page. */
export default {
  shareSections: {
    document: 'Dans « {name} »',
    title: 'Lecture par section',
    help: 'Pour chaque section (un titre h1–h3 en commence une) : les lecteurs sont les visites où elle est restée à l’écran au moins une seconde — là où les barres raccourcissent, les lecteurs s’arrêtent ; la médiane en secondes montre où ils s’attardent.',
    none: 'Aucune section lue pour l’instant. Les documents texte n’en ont pas ; les visiteurs qui refusent le suivi ne sont pas mesurés.',
    heading: 'Section',
    readers: 'Lecteurs',
    median: 'Temps médian',
    seconds: '{seconds} s',
    untitled: 'Section {index} (titre sans texte)',
    lingered: 'la plus longue',
  },
};

/** English messages: reading by section on a share's analytics page. */
export default {
  shareSections: {
    document: 'In “{name}”',
    title: 'Reading by section',
    help: 'For each section (an h1–h3 heading starts one): readers are the visits that had it on screen for at least a second — where the bars shrink, readers stop; the median seconds show where they linger.',
    none: 'No sections read yet. Text documents have none; visitors who ask not to be tracked are not measured.',
    heading: 'Section',
    readers: 'Readers',
    median: 'Median time',
    seconds: '{seconds} s',
    untitled: 'Section {index} (no heading text)',
    lingered: 'longest',
  },
};

/** French messages: sharing a folder as a collection, and the documents each visit opened. */
export default {
  collections: {
    search: 'Rechercher par fichier, dossier ou lien',
    fileOrFolder: 'Fichier ou dossier',
    label: 'collection',
    shareFolder: 'Partager le dossier',
    shareFolderHelp:
      'Un seul lien vers tous les documents sains de ce dossier et de ses sous-dossiers, y compris ceux ajoutés plus tard.',
    folderShares: 'Liens du dossier',
    explainer:
      'Les visiteurs reçoivent un lien vers tous les documents sains de ce dossier et de ses sous-dossiers : ceux ajoutés plus tard apparaissent, ceux déplacés ou mis à la corbeille disparaissent. Chaque réglage s’applique à la collection entière ; l’ouvrir constitue la visite.',
    noVersionPin:
      'Une collection montre toujours la dernière version saine de chaque document ; aucune version ne peut être figée.',
    summary: 'Ils voient les documents sains du dossier, y compris ceux ajoutés plus tard.',
    backToFolder: 'Retour au dossier',
    openFolder: 'Ouvrir le dossier',
    filteredBy: 'Liens du dossier « {name} »',
    filteredByFolder: 'Liens d’un dossier',
    clearFilter: 'Afficher tous les liens',
  },
  documentReads: {
    deleted: '(document supprimé)',
    title: 'Documents ouverts ({count})',
    line: '{time} · {depth} lu',
    completed: 'lu jusqu’au bout',
  },
  documentReading: {
    title: 'Documents lus',
    help: '{visits, plural, one {D’après la visite humaine de cette période, les mêmes lectures que le journal des visites ci-dessous.} other {D’après les # visites humaines de cette période, les mêmes lectures que le journal des visites ci-dessous.}}',
    partial: 'Seules les visites les plus récentes de la période sont comptées.',
    document: 'Document',
    readers: 'Lecteurs',
    opens: 'Ouvertures',
  },
};

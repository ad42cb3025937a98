/** French messages: a share's agreement, the acceptances of it, and watermarks that name the reader. */
export default {
  agreementForm: {
    title: 'Accord',
    toggle: 'Faire accepter un accord aux visiteurs',
    help: 'Des conditions ou un accord de confidentialité, en Markdown. Les visiteurs l’acceptent après le mot de passe et la connexion, avant de voir quoi que ce soit ; l’acceptation vaut jusqu’à ce que vous changiez le texte.',
    textLabel: 'Texte de l’accord (Markdown)',
    placeholder: '## Confidentialité\n\nEn ouvrant ces documents, vous vous engagez à les garder confidentiels.',
    count: '{count} / {max} caractères',
    requireName: 'Le lecteur doit saisir son nom',
    requireNameHelp:
      'Il signe d’un nom de {min} à {max} caractères ; ce nom est enregistré avec l’acceptation et peut figurer dans le filigrane.',
    editHelp:
      'Changer le texte demande à chaque lecteur d’accepter de nouveau ; le désactiver retire l’accord. Les acceptations antérieures restent listées sur cette page.',
    errEmpty: 'Saisissez le texte que les visiteurs acceptent.',
    errLength: 'L’accord doit compter de {min} à {max} caractères.',
    summary: 'Ils acceptent votre accord avant que rien ne s’affiche.',
    summaryNamed: 'Ils acceptent votre accord en signant de leur nom avant que rien ne s’affiche.',
  },
  readerWatermark: {
    placeholders:
      'Variables, remplies à chaque affichage : {email} l’adresse vérifiée du lecteur connecté, {name} le nom signé sur l’accord, {date} la date (UTC), {ip} le réseau du lecteur. Une variable sans valeur est omise ; la limite compte le texte tel que saisi.',
    errControl: 'Les sauts de ligne et autres caractères de contrôle ne peuvent pas être dessinés.',
  },
  acceptances: {
    title: 'Acceptations',
    hint: 'Qui a accepté l’accord, du plus récent au plus ancien. Chaque ligne désigne le texte accepté par son empreinte.',
    hintRemoved: 'Ce lien ne demande plus d’accord ; les acceptations de ses textes antérieurs sont conservées.',
    exportCsv: 'Exporter en CSV',
    empty: 'Personne n’a encore accepté l’accord.',
    at: 'Quand',
    name: 'Nom',
    email: 'E-mail',
    ipPrefix: 'Réseau',
    userAgent: 'Appareil',
    digest: 'Empreinte de l’accord',
    earlierText: 'texte antérieur',
    more: 'Charger plus',
  },
};

import type { RequestMessages } from '../request-text.js';

/** The document request pages' words in French. */
export default {
  page: {
    askedBy: '{owner} vous demande de déposer des documents',
    received: 'Reçus : {taken} sur {max}',
    largest: 'Taille maximale d’un fichier : {size}',
    until: 'Ouvert jusqu’au : {date}',
    kinds: 'Vous pouvez déposer des fichiers texte (.md, .markdown, .html, .htm, .txt, .text) en UTF-8.',
  },
  form: {
    file: 'Choisir un fichier',
    orPaste: 'Ou coller du texte',
    text: 'Texte',
    fileName: 'Nom du fichier (par exemple notes.md)',
    name: 'Votre nom',
    email: 'Votre adresse e-mail',
    emailOptional: 'Votre adresse e-mail (facultatif)',
    message: 'Message (facultatif)',
    submit: 'Déposer',
  },
  problems: {
    name: 'Indiquez votre nom (100 caractères au plus).',
    email: 'Indiquez une adresse e-mail valide.',
    message: 'Le message ne peut pas dépasser 2 000 caractères.',
    document: 'Choisissez un fichier, ou collez du texte et donnez-lui un nom de fichier.',
    both: 'Choisissez un fichier ou collez du texte, pas les deux.',
  },
  closed: {
    title: 'Demande fermée',
    body: 'La personne qui a demandé ces documents a fermé la demande. Elle n’accepte plus de dépôt.',
  },
  expired: {
    title: 'Demande expirée',
    body: 'La date limite de cette demande de documents est passée. Elle n’accepte plus de dépôt.',
  },
  full: { title: 'Demande complète', body: 'Cette demande a reçu tous les documents attendus. Elle n’accepte plus de dépôt.' },
  receipt: {
    title: 'Accusé de dépôt',
    intro: 'Conservez l’adresse de cette page : elle ne montre que votre propre dépôt.',
    request: 'Demande',
    file: 'Fichier',
    size: 'Taille',
    at: 'Reçu le',
    status: 'État',
    checking: 'Vérification en cours',
    received: 'Reçu',
    infected: 'Refusé par l’antivirus',
    refresh: 'Rechargez la page pour voir l’état le plus récent.',
  },
} satisfies RequestMessages;

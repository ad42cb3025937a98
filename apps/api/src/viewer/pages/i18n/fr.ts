import type { ViewerMessages } from '../viewer-text.js';

/** The viewer's words in French. */
export default {
  sender: { from: 'Partagé par {name} avec Sharedown' },
  switcher: { label: 'Langue' },
  refusals: {
    NOT_FOUND: { title: 'Lien introuvable', body: 'Ce lien de partage n’existe pas. Vérifiez que l’adresse est complète.' },
    REVOKED: { title: 'Lien révoqué', body: 'La personne qui a partagé ce lien l’a révoqué. Le contenu n’est plus disponible.' },
    EXPIRED: { title: 'Lien expiré', body: 'Ce lien de partage a expiré. Le contenu n’est plus disponible.' },
    CONSUMED: { title: 'Lien épuisé', body: 'Ce lien a atteint son nombre de consultations. Le contenu n’est plus disponible.' },
    SESSION_TAKEN: {
      title: 'Accès refusé',
      body: 'Ce lien ne peut être consulté que dans la session de navigateur qui l’a ouvert en premier.',
    },
    VISITOR_LIMIT: { title: 'Plus de consultations', body: 'Vous avez épuisé vos consultations de ce lien.' },
    USER_LIMIT: { title: 'Plus de consultations', body: 'Votre compte a épuisé ses consultations de ce lien.' },
  },
  states: {
    serverError: {
      title: 'Une erreur est survenue',
      body: 'Le serveur ne peut pas traiter cette demande pour le moment. Réessayez plus tard.',
    },
    serviceUnavailable: {
      title: 'Temporairement indisponible',
      body: 'Le service est en cours de rétablissement. Rechargez la page dans quelques secondes.',
    },
    trashed: {
      title: 'Document supprimé',
      body: 'La personne qui a partagé ce document l’a supprimé. Le contenu n’est plus disponible.',
    },
    quarantined: {
      title: 'Document mis en quarantaine',
      body: 'L’analyse antivirus a jugé ce document dangereux. Le contenu n’est plus disponible.',
    },
    scanning: {
      title: 'Analyse de sécurité en cours',
      body: 'Ce document vient d’être envoyé et est en cours d’analyse. Actualisez la page dans un instant.',
    },
    scanFailed: {
      title: 'Analyse de sécurité retardée',
      body: 'L’analyse de sécurité de ce document n’est pas encore terminée. Elle sera relancée automatiquement ; revenez un peu plus tard.',
    },
    linkPreview: {
      title: 'Document partagé',
      body: 'Ceci est un lien vers un document partagé. Ouvrez-le dans un navigateur pour le consulter.',
    },
    foreignForm: { title: 'Demande refusée', body: 'Les formulaires doivent être envoyés depuis une page de ce site.' },
    agreementForged: {
      title: 'Demande refusée',
      body: 'Ce formulaire d’accord n’appartient pas à ce lien ou à ce navigateur. Ouvrez de nouveau le lien.',
    },
    submitOnSite: { title: 'Demande refusée', body: 'Veuillez envoyer ceci depuis la page de connexion de ce site.' },
    notListed: {
      title: 'Accès non autorisé',
      body: 'Le compte connecté ({email}) ne figure pas sur la liste d’accès de ce lien.',
    },
    tooManyAttempts: { title: 'Trop de tentatives', body: 'Trop de tentatives. Réessayez dans {duration}.' },
    passwordThrottled: { title: 'Trop de tentatives', body: 'Trop de mots de passe erronés. Réessayez dans {duration}.' },
    unavailable: {
      title: 'Momentanément indisponible',
      body: 'Le document est en cours de nouvelle vérification. Réessayez plus tard.',
    },
    frameExpired: {
      title: 'Lien plus valide',
      body: 'Cette page ne s’ouvre que depuis un lien de partage. Ouvrez de nouveau le lien de partage.',
    },
    loginExpired: {
      title: 'Connexion expirée',
      body: 'Les informations de connexion ne sont plus valides. Ouvrez de nouveau le lien.',
    },
    passwordLoginOff: {
      title: 'Connexion par mot de passe indisponible',
      body: 'Ce service ne propose pas la connexion par mot de passe. Connectez-vous autrement.',
    },
    emailCodesOff: { title: 'Page introuvable', body: 'Ce service ne propose pas la connexion par code envoyé par e-mail.' },
    reportThrottled: { title: 'Trop de signalements', body: 'Vous avez envoyé trop de signalements. Réessayez plus tard.' },
    reportReceived: { title: 'Signalement reçu', body: 'Merci, votre signalement a été enregistré.' },
    failed: { title: 'Action impossible' },
  },
  password: {
    title: 'Mot de passe requis',
    body: '« {file} » est protégé par un mot de passe. Saisissez-le pour le consulter.',
    label: 'Mot de passe',
    submit: 'Voir le document',
    wrong: 'Le mot de passe est incorrect.',
  },
  agreement: {
    title: 'Veuillez accepter l’accord',
    body: 'Avant de consulter « {file} », lisez et acceptez l’accord ci-dessous.',
    bodyUnnamed: 'Avant de consulter ce document, lisez et acceptez l’accord ci-dessous.',
    accept: 'J’ai lu et j’accepte l’accord ci-dessus',
    name: 'Votre nom',
    submit: 'Accepter et continuer',
    mustAccept: 'Cochez la case pour accepter l’accord.',
    nameLength: 'Saisissez votre nom (1 à 100 caractères).',
  },
  reveal: {
    title: 'Ouvrir le document',
    ready: '« {file} » est prêt.',
    oneTime: 'Ce lien est à usage unique : une fois ouvert, il cesse de fonctionner et le document ne peut plus être consulté.',
    burn: 'Lecture éphémère : ce que vous avez fait défiler est masqué dans ce navigateur.',
    submit: 'Voir le document',
  },
  signIn: {
    title: 'Connexion requise',
    body: 'Ce lien est réservé aux utilisateurs connectés. Connectez-vous d’abord.',
    email: 'E-mail',
    password: 'Mot de passe',
    submit: 'Se connecter et voir',
    console: 'Se connecter à la console',
    bounce: 'Se connecter pour voir',
    sso: 'Authentification unique',
    missingFields: 'Saisissez votre adresse e-mail et votre mot de passe.',
    wrongCredentials: 'Adresse e-mail ou mot de passe incorrect.',
    ticketExpired: 'La vérification a expiré. Saisissez de nouveau votre adresse e-mail et votre mot de passe.',
  },
  twoFactor: {
    title: 'Validation en deux étapes',
    body: 'Saisissez le code à 6 chiffres de votre application d’authentification, ou un code de récupération.',
    code: 'Code',
    submit: 'Valider et voir',
    codeShape: 'Saisissez un code à 6 chiffres ou un code de récupération.',
    wrongCode: 'Le code est incorrect ou a déjà été utilisé.',
  },
  report: {
    link: 'Signaler',
    title: 'Signaler ce partage',
    body: 'Si « {file} » contient des contenus illégaux, contrefaisants, frauduleux ou malveillants, indiquez-nous pourquoi.',
    bodyUnnamed:
      'Si ce document contient des contenus illégaux, contrefaisants, frauduleux ou malveillants, indiquez-nous pourquoi.',
    reason: 'Motif',
    submit: 'Envoyer le signalement',
    reasonLength: 'Décrivez le motif en 3 à 1000 caractères.',
  },
  emailCode: {
    offer: 'Pas de mot de passe ? Connectez-vous avec un code reçu par e-mail :',
    email: 'E-mail',
    send: 'Envoyer le code',
    requestTitle: 'Se connecter avec un code',
    requestBody: 'Saisissez votre adresse e-mail et nous vous enverrons un code à 6 chiffres.',
    sendTo: 'Envoyer un code à {email}',
    verifyTitle: 'Vérifier votre adresse e-mail',
    verifyBody: 'Nous allons envoyer un code à 6 chiffres à {email}. Il prouve que cette adresse vous appartient.',
    entryTitle: 'Saisir le code',
    entryBody:
      'Si {email} peut être utilisée, un code vous a été envoyé ; il est valable {duration}. Consultez vos e-mails et saisissez le code à 6 chiffres.',
    twoFactorBody:
      'Ce compte utilise la validation en deux étapes. Saisissez le code de votre application d’authentification, ou un code de récupération.',
    code: 'Code',
    twoFactorCode: 'Code de validation ou code de récupération',
    verify: 'Vérifier',
    signIn: 'Se connecter et voir',
    invalidEmail: 'Saisissez une adresse e-mail valide.',
    codeShape: 'Saisissez le code à 6 chiffres reçu par e-mail.',
    wrongCode: 'Le code est incorrect ou a expiré. Demandez-en un nouveau.',
    usedCode: 'Ce code a déjà été utilisé. Demandez-en un nouveau.',
  },
  unverified: {
    title: 'Adresse e-mail non vérifiée',
    body: 'Ce lien est réservé aux adresses e-mail vérifiées, et l’adresse du compte connecté ({email}) n’est pas encore vérifiée.',
    emailLink: 'Vérifier l’adresse avec un code envoyé par e-mail',
    sso: 'Connectez-vous par authentification unique à un compte dont votre fournisseur d’identité confirme l’adresse, puis rouvrez le lien.',
    none: 'Ce service ne peut pas vérifier les adresses e-mail (ni envoi d’e-mails ni authentification unique configurés). Contactez la personne qui a partagé le lien.',
  },
  document: {
    noPrint: 'Ce document ne peut pas être imprimé.',
    burnedAll: 'Vous avez lu tout le document ; son contenu a été détruit.',
    burnedSome: 'Les parties lues ont été détruites ; reprenez là où vous vous êtes arrêté.',
  },
  collection: {
    label: 'Dossier partagé',
    empty: 'Ce dossier ne contient encore aucun document à afficher.',
    top: 'Racine',
    name: 'Nom',
    kind: 'Type',
    size: 'Taille',
    changed: 'Dernière modification',
    back: 'Retour au dossier',
    kinds: { HTML: 'HTML', MARKDOWN: 'Markdown', TEXT: 'Texte' },
  },
  admin: {
    ownerDisabled: {
      title: 'Compte désactivé',
      body: "Le compte qui a partagé ce lien a été désactivé par l'administrateur de ce service. Le contenu n'est pas disponible.",
    },
    accountDisabled: {
      title: 'Compte désactivé',
      body: "Ce compte a été désactivé par l'administrateur de ce service et ne peut pas se connecter.",
    },
  },
  reports: {
    shareDisabled: {
      title: 'Lien désactivé',
      body: "Ce lien a été désactivé par l'administrateur de ce service à la suite d'un signalement. Il ne sera pas rétabli et son contenu n'est pas disponible.",
    },
  },
} satisfies ViewerMessages;
